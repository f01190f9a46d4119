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
            discussion: Self.discussion)

        @Option(help: ArgumentHelp("Page requests at once.", valueName: "n"))
        var concurrency = 2

        @Option(help: ArgumentHelp("The rendition to list. Giphy: fixed_height (200 px tall: enough for a terminal), else the next of \(GiphyAPI.fallbacks.joined(separator: ", ")). Klipy: hd, md, sm or xs (default sm, about 220 px), else the nearest size that has a gif.", valueName: "name"))
        var rendition: String?

        @Option(help: ArgumentHelp("Wikimedia Commons: the width the thumbnails listed must have at least, in pixels (\(CommonsAPI.widths.lowerBound)-\(CommonsAPI.widths.upperBound)); the first of Wikimedia's standard widths (\(CommonsAPI.standardWidths.map(String.init).joined(separator: ", "))) that is, is asked for. Commons scales each picture to it (never up), so a fetch brings what a terminal can show rather than a photograph of many megabytes; the record's url is that thumbnail. sposure play gives the terminal's width in pixels.", valueName: "px"))
        var width = CommonsAPI.defaultWidth

        @Option(help: ArgumentHelp("The formats a GIF may be listed in: gif,webp takes the rendition's WebP where Giphy or Klipy says it weighs less than its GIF (its record says \"mime\":\"image/webp\"; about a quarter of the bytes on photographic clips, and gif-play decodes it); gif lists GIFs only, for a player that decodes nothing else.", valueName: "list"))
        var formats = "gif,webp"

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
