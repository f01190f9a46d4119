import ArgumentParser
import FoundationEssentials
import Glibc
import GiphyKit
import LadderKit
import SposureCLI
import HistoryKit
import SposureKit

extension GiphyPages {
    /// `giphy-pages list`: the URL lister.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run page requests and write one gif record per result (the URL lister).",
            discussion: """
                Reads "page" records on stdin (from `giphy-pages plan`, or saved) and writes, \
                in page order, one "gif" record per result: {"kind":"gif","id":…,"title":…,\
                "query":…,"section":…,"rank":…,"rendition":"fixed_height","url":…,"width":…,\
                "height":…,"frames":…,"size":…,"cache_key":"giphy:<id>:<rendition>"}. Numbers \
                are numbers, though the API sends them as strings; media URLs are kept exactly \
                (with their ?cid=). A GIF seen before in the run is dropped. Other records pass \
                through unchanged.

                Each page names its API in "provider" (absent: giphy), so one run may list \
                both. Klipy's records also carry "provider":"klipy", its 16-digit ids as exact \
                strings, and cache_key "klipy:<id>:<size>"; once a Klipy page says has_next: \
                false, the later pages of its query cost no call. A page that comes back empty \
                ends its list for either API, whatever the API claims: its later pages become \
                list_ended error records without a call.

                Every good answer is kept in the API cache for --api-ttl (a page asked twice in \
                one run, as --follow does, is asked again). Every call spends the --rate \
                allowance kept in the data folder; when the next call is further away than \
                --max-wait, the page becomes a rate_limited error record that says when calls \
                are allowed again.

                429, 5xx and the API's empty "synthetic" answers are retried with backoff for up \
                to --max-wait, and no page takes longer than --max-time from its first call \
                (attempts and waits together: a stalled API's page becomes a timeout record); \
                what still fails becomes an error record that keeps the page's \
                fields, so `giphy-pages list --retry-errors < saved.ndjson` runs just the failed \
                pages again. A refused key (401/403) stops the run with one message.

                On a ladder's pages (giphy-pages plan --ladder), a GIF you already rated \
                well above the rung while playing that ladder (a digit key in gif-play: 3 or \
                more over the rung's SUDS / 10) is skipped before it is fetched; the count is \
                said on stderr (unless --quiet). The ratings are in the data folder, ratings.ndjson.

                Left out before any fetch, too: a GIF you marked off-topic (the x key in gif-play, \
                kept in ratings.ndjson), on any ladder or none, and a result whose title, slug, tags \
                or creator hold a word of the page's "avoid" (plan --avoid, a ladder's lists) or of \
                --avoid. After a page that left GIFs out (or held some back), one record says how many: \
                {"kind":"skipped","stage":"giphy-pages list","query":…,"section":…,"offset":…,\
                "avoided":N,"off_topic":N,"rated":N,"held":N,"dropped":N,"words":{"spider-man":N}}; \
                at the end one line on stderr sums them up.

                New GIFs first: a GIF shown in the last --fresh-rounds rounds on the same rung (or \
                the same query), as the data folder's seen.ndjson says, is held back (at most \
                \(FreshOrder.capacity)) and listed when the pages run out, the longest unseen first. \
                Each "gif" record carries "creator" when the API names one (Giphy does, Klipy does not).

                Wikimedia Commons (pages of "provider":"commons", no key) lists freely licensed \
                pictures, one request at a time: each record's url is a thumbnail --width pixels wide, \
                and it carries "mime", "author", "license", "license_url" and "page_url", the credit \
                the licences ask for (a file that names no licence becomes a no_license error record). \
                SVG, TIFF, PDF, video and audio files are left out before any fetch (counted in \
                "skipped" as "unplayable"). When Wikimedia's servers lag (maxlag), the page waits as \
                their Retry-After says, within --max-time.

                Examples:
                  giphy-pages plan spiders | giphy-pages list | fetch-images
                  giphy-pages list --rendition downsized < pages.ndjson > gifs.ndjson
                  grep '"code"' gifs.ndjson | giphy-pages list --retry-errors
                  giphy-pages plan --provider klipy spiders | giphy-pages list --rendition md
                  giphy-pages plan --provider commons Araneae | giphy-pages list --width 320

                \(keysHelp)

                \(exitCodes)
                """)

        @Option(help: ArgumentHelp("Page requests at once.", valueName: "n"))
        var concurrency = 2

        @Option(help: ArgumentHelp("The rendition to list. Giphy: fixed_height (200 px tall: enough for a terminal), else the next of \(GiphyAPI.fallbacks.joined(separator: ", ")). Klipy: hd, md, sm or xs (default sm, about 220 px), else the nearest size that has a gif.", valueName: "name"))
        var rendition: String?

        @Option(help: ArgumentHelp("Wikimedia Commons: the width of the thumbnails listed, in pixels (\(CommonsAPI.widths.lowerBound)-\(CommonsAPI.widths.upperBound); default \(CommonsAPI.defaultWidth)). Commons scales each picture to it (never up), so a fetch brings what a terminal can show rather than a photograph of many megabytes; the record's url is that thumbnail. A window drawn with kitty or sixel graphics may want more.", valueName: "px"))
        var width = CommonsAPI.defaultWidth

        @Option(help: ArgumentHelp("The formats a GIF is listed in: gif, or gif,webp: the rendition's WebP where Giphy or Klipy says it weighs less than its GIF (its record says \"mime\":\"image/webp\"; for a player that decodes WebP).", valueName: "list"))
        var formats = "gif"

        @Option(help: ArgumentHelp("The most API calls of the run; pages past it become max_calls error records.", valueName: "n"))
        var maxCalls: Int?

        @Flag(help: "Take back this stage's own error records (saved from an earlier run) and run their pages again.")
        var retryErrors = false

        @Option(help: ArgumentHelp("Time allowed for one request.", valueName: "time"))
        var timeout = TimeSpan(seconds: 30)

        @Option(help: ArgumentHelp("Leave out results whose title, slug, tags or creator hold this word or phrase (repeatable), on every page, besides the page's own \"avoid\".", valueName: "word"))
        var avoid: [String] = []

        @Option(help: ArgumentHelp("List GIFs shown in the last N rounds on the same rung (or query) after the others (default: the page's fresh_rounds, else \(LadderRules.defaultFreshRounds); 0: list in page order).", valueName: "n"))
        var freshRounds: Int?

        @OptionGroup var api: APIOptions
        @OptionGroup var stream: StreamOptions

        mutating func validate() throws {
            guard (1...16).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 16.") }
            for word in avoid {
                if let problem = AvoidList.problem(word) { throw ValidationError("--avoid: \(problem).") }
            }
            if let freshRounds, !(0...50).contains(freshRounds) { throw ValidationError("--fresh-rounds must be from 0 to 50.") }
            guard ["gif", "gif,webp", "webp,gif"].contains(formats) else { throw ValidationError("--formats must be gif or gif,webp.") }
            guard CommonsAPI.widths.contains(width) else {
                throw ValidationError("--width must be from \(CommonsAPI.widths.lowerBound) to \(CommonsAPI.widths.upperBound).")
            }
            if let maxCalls, maxCalls < 0 { throw ValidationError("--max-calls must be 0 or more.") }
            if let rendition, !GIFProvider.registry.contains(where: { $0.renditions.contains(rendition) }) {
                let each = GIFProvider.registry.map { "\($0.displayName)'s: \($0.renditions.joined(separator: ", "))" }
                throw ValidationError("--rendition \(rendition.isEmpty ? "\"\"" : rendition) is not a GIF rendition. \(each.joined(separator: "; ")).")
            }
        }

        func run() throws {
            APIOptions.identify()
            GIFProvider.register(CommonsAPI(thumbWidth: width))
            if formats != "gif" {
                GIFProvider.register(GiphyAPI(webp: true))
                GIFProvider.register(KlipyAPI(webp: true))
            }
            var configuration = ListConfiguration()
            configuration.concurrency = concurrency
            // A rendition names one API's; every other API keeps its default.
            configuration.rendition = rendition
            configuration.maxWait = api.maxWait.seconds
            configuration.maxTime = api.maxTimeLimit
            configuration.maxCalls = maxCalls
            configuration.rate = api.rateLimit
            configuration.dataFolder = api.dataFolder
            configuration.cache = api.cache
            configuration.retryErrors = retryErrors
            configuration.timeout = timeout.seconds
            configuration.window = max(stream.buffer, concurrency * 4)
            configuration.ratedSkip = RatedSkip(file: GIFRatingFile(path: GIFRatingFile.defaultPath()))
            configuration.offTopic = OffTopicSkip(file: GIFRatingFile(path: GIFRatingFile.defaultPath()))
            configuration.avoid = AvoidList(avoid)

            let stage = Stage(name: "giphy-pages list", options: stream.stageOptions)
            let diagnostics = stage.diagnostics
            configuration.fresh = FreshOrder(file: SeenFile(path: SeenFile.defaultPath(), warn: { diagnostics.warning($0) }), rounds: freshRounds)
            // Every API whose key is set; a page of another says so once and becomes a no_key record.
            var accesses: [GIFProvider: APIAccess] = [:]
            let keyed = GIFProvider.keyed.filter { $0.key(in: ProcessInfo.processInfo.environment) != nil }
            if api.apiURL != nil && keyed.count > 1 {
                // One address for two APIs would send each key to the other's server.
                stage.diagnostics.error("--api-url names one API's address, and both \(keyed.map(\.keyVariable).joined(separator: " and ")) are set: "
                    + "give each its own with \(keyed.map(\.urlVariable).joined(separator: " and ")) instead")
                throw ExitCode(64)
            }
            for provider in keyed {
                let customerID = provider.api.usesCustomerID ? DataStore(root: api.dataFolder).klipyCustomer() : ""
                accesses[provider] = try? APIAccess(provider: provider, apiURL: api.apiURL, customerID: customerID)
            }
            // An API that needs no key is always at hand; --api-url is its address only when no key is set.
            for provider in GIFProvider.allCases where !provider.api.needsKey {
                accesses[provider] = try? APIAccess(provider: provider, apiURL: keyed.isEmpty ? api.apiURL : nil)
            }
            guard !accesses.isEmpty else {
                stage.diagnostics.error(GIFProvider.noKeyMessage)
                throw ExitCode.failure
            }
            let lister = try stage.required("libcurl", exit: ExitCode(2)) {
                try PageLister(stage: stage, accesses: accesses, configuration: configuration)
            }
            stage.parsedKinds = ["page", "error"]
            stage.start()
            stage.finish(failed: lister.run())
        }
    }
}
