import ArgumentParser
import FoundationEssentials
import Glibc
import GiphyKit
import LadderKit
import SposureCLI
import SposureKit

extension GiphyPages {
    /// `giphy-pages plan`: the page emitter.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the page requests for queries (the page emitter), for Giphy, Klipy or Wikimedia Commons.",
            discussion: Self.discussion)

        @Option(name: .shortAndLong, help: ArgumentHelp("A query (repeatable); queries may also be given as arguments.", valueName: "query"))
        var query: [String] = []

        @Argument(help: ArgumentHelp("Queries, one section each.", valueName: "query"))
        var queries: [String] = []

        @Option(help: ArgumentHelp("The API: giphy, klipy or commons (default: the one whose key is set, Giphy first; with no key, commons: Wikimedia Commons' freely licensed pictures).", valueName: "name"))
        var provider: String?

        @Flag(help: "Plan the trending endpoint instead of a search.")
        var trending = false

        @Option(help: ArgumentHelp("Results a page (the most a Giphy beta key may ask is 50; Klipy's per_page, at most 50).", valueName: "n"))
        var limit = 50

        @Option(help: ArgumentHelp("The most results per query (default: all the API serves).", valueName: "n"))
        var maxResults: Int?

        @Flag(help: "Emit the sections page by page in turn instead of one after another.")
        var interleave = false

        @Flag(help: "Emit the pages in a random order, each once (--seed makes it repeatable).")
        var shuffle = false

        @Option(help: ArgumentHelp("The seed of --shuffle (default: random).", valueName: "n"))
        var seed: UInt64?

        @Option(help: ArgumentHelp("Read queries one per line from FILE, or - for stdin, as a person types them.", valueName: "file"))
        var queriesFrom: String?

        @Option(help: ArgumentHelp("With --queries-from: a query replaced by the next line within this time is never searched (0: search every line, e.g. of a file of queries).", valueName: "time"))
        var debounce = TimeSpan(seconds: 0.5)

        @Flag(help: "After the pages run out, keep emitting the first page of each list every --interval, so new results flow on (the lister drops repeats). Ends on SIGINT or when stdout closes.")
        var follow = false

        @Option(help: ArgumentHelp("The --follow interval.", valueName: "time"))
        var interval = TimeSpan(seconds: 60)

        @Flag(help: "Make no call: plan from --total instead of asking the API.")
        var noPing = false

        @Option(help: ArgumentHelp("With --no-ping: the number of results to plan for.", valueName: "n"))
        var total: Int?

        @Option(help: ArgumentHelp("Leave out results whose title, slug, tags or creator hold this word or phrase (repeatable): every page carries it in \"avoid\" for `list`, after a ladder rung's own.", valueName: "word"))
        var avoid: [String] = []

        @OptionGroup var ladder: LadderOptions
        @OptionGroup var api: APIOptions
        @OptionGroup var stream: StreamOptions

        var allQueries: [String] { query + queries }

        /// The API: `--provider`, else the one whose key is set (Giphy first),
        /// else Wikimedia Commons, which needs none; with --no-ping, an API
        /// that counts its results (Giphy without a key: no call is made).
        func provider(environment: [String: String] = ProcessInfo.processInfo.environment) -> GIFProvider? {
            if let named = provider.flatMap(GIFProvider.init(rawValue:)) { return named }
            guard noPing else { return GIFProvider.chosen(environment: environment) }
            return GIFProvider.keyed.first { $0.api.countsResults && $0.key(in: environment) != nil }
        }

        func run() throws {
            APIOptions.identify()
            let stage = Stage(name: "giphy-pages plan", options: stream.stageOptions)
            let environment = ProcessInfo.processInfo.environment
            // A ladder first: a bad file is a usage error, and a rung of one's own GIFs needs no key.
            // The rung's queries for the API that will be asked (a rung may name its own for Commons).
            let ladderPlan = try ladder.plan(stage: stage, provider: provider(environment: environment)?.rawValue)
            try checkAvoidWords(with: ladderPlan, stage: stage)
            let chosen: GIFProvider
            if let found = provider(environment: environment) {
                chosen = found
                if provider == nil && !found.api.needsKey {
                    stage.diagnostics.note("no key set: \(found.displayName) (--provider \(found.rawValue)); a Giphy or Klipy key adds GIFs")
                }
            } else if noPing {
                chosen = .recordDefault  // no call, no key needed
            } else {
                stage.diagnostics.error(GIFProvider.noKeyMessage)
                throw ExitCode.failure
            }
            let configuration = configuration(provider: chosen, ladder: ladderPlan, stage: stage)
            let planned = ladderPlan?.allQueries ?? allQueries

            var access: APIAccess?
            if !noPing && chosen.api.countsResults {
                access = try stage.required(exit: .failure) { try APIAccess(provider: chosen, apiURL: api.apiURL) }
            }
            let planner = try stage.required("libcurl", exit: ExitCode(2)) {
                try PagePlanner(stage: stage, access: access, configuration: configuration)
            }
            if let source = queriesFrom {
                let lines = BoundedQueue<String>(capacity: 64)
                guard let fd = source == "-" ? Int32(0) : Optional(open(source, O_RDONLY | O_CLOEXEC)), fd >= 0 else {
                    stage.diagnostics.error("cannot open \(source): \(String(cString: strerror(errno)))")
                    throw ExitCode(2)
                }
                stage.start(reading: false)
                QueryReader.start(fd: fd, into: lines, diagnostics: stage.diagnostics)
                stage.finish(failed: planner.run(lines: lines, debounce: debounce.seconds))
            }
            stage.start(reading: false)
            stage.finish(failed: planner.run(queries: planned))
        }
    }
}
