import FoundationEssentials
import Glibc
import NetKit
import LadderKit
import RecordKit
import SposureKit

/// How `giphy-pages plan` plans.
public struct PlanConfiguration: Sendable {
    /// The API planned for.
    public var provider = GIFProvider.recordDefault
    public var endpoint = GiphyEndpoint.search
    /// Results a page (the API's `limit`).
    public var limit = 50
    /// The most results planned per query; nil: all the API serves.
    public var maxResults: Int?
    public var rating = "g"
    public var lang = "en"
    public var interleave = false
    /// Shuffle the pages with this seed.
    public var shuffleSeed: UInt64?
    /// Plan without asking: use this total.
    public var fixedTotal: Int?
    /// Poll for new results every this many seconds after planning; nil: don't.
    public var followInterval: Double?
    /// Seconds a ping may spend waiting between retries.
    public var maxWait = 60.0
    /// Seconds a ping may take from its first call, retries and waits
    /// included (`--max-time`); nil: no limit.
    public var maxTime: Double? = ListConfiguration.defaultMaxTime
    public var backoff = Backoff(base: 1, cap: 30)
    /// Calls allowed per period of seconds for the ping (`--rate`; 0 calls: no limit); nil: the provider's own.
    public var rate: (calls: Int, period: Double)?
    /// Where the call budget is kept across runs; nil: for this run only.
    public var dataFolder: String?
    /// The API answers kept on disk; nil: none.
    public var cache: APICache?
    /// A ladder round: its page order (`--mix`) and the fields each page carries.
    public var ladder: LadderPagePlan?
    /// Words whose results `list` is to leave out (`--avoid`): every page
    /// carries them in `avoid`, after its ladder rung's.
    public var avoid = AvoidList()

    /// The defaults.
    public init() {}
}

/// The engine of `giphy-pages plan`: one ping per query learns how many
/// results there are (when the API counts them; one that does not is planned
/// by page number without a call), then page records go out.
public final class PagePlanner {
    private let stage: Stage
    private let access: APIAccess?
    private let configuration: PlanConfiguration
    private let engine: RequestEngine<PingClient>?
    private var failed = false
    private var refused = false
    /// The first page of each list planned, for `--follow`.
    private var planned: [PageRequest] = []

    /// A planner writing to `stage`; `access` may be nil only with a fixed total.
    public init(stage: Stage, access: APIAccess?, configuration: PlanConfiguration) throws(CurlError) {
        self.stage = stage
        self.access = access
        self.configuration = configuration
        let pings = configuration.fixedTotal == nil && configuration.provider.api.countsResults
        if pings, let access {
            let client = PingClient(stage: stage, access: access, configuration: configuration)
            // Each ping is one call, retried within --max-wait (the budget's waits included).
            let retry = RetryPolicy(maxWait: configuration.maxWait, backoff: configuration.backoff)
            engine = try RequestEngine(stage: stage, sequencer: OutputSequencer(output: stage.output, ordered: true, window: 1),
                                       client: client, limits: RequestLimits(concurrency: 1, retry: retry, maxTime: configuration.maxTime))
        } else {
            engine = nil
        }
    }

    /// Plans `queries` (for trending: one section, no query), then follows if asked.
    /// Returns true when something failed.
    public func run(queries: [String]) -> Bool {
        let lists: [String?] = configuration.endpoint == .trending ? [nil] : queries.map { $0 }
        if configuration.interleave || configuration.shuffleSeed != nil || configuration.ladder != nil {
            var sections: [[PageRequest]] = []
            for query in lists {
                guard !stopping else { break }
                if let pages = plan(query) { sections.append(pages) }
            }
            var pages = configuration.ladder?.order(sections)
                ?? (configuration.interleave ? PagePlan.interleave(sections) : sections.flatMap { $0 })
            if let seed = configuration.shuffleSeed { pages = PagePlan.shuffle(pages, seed: seed) }
            emit(pages)
        } else {
            for query in lists {
                guard !stopping else { break }
                if let pages = plan(query) { emit(pages) }
            }
        }
        follow()
        return failed || refused
    }

    /// Plans queries as they arrive on `lines` (one per line), each after
    /// standing `debounce` seconds without a newer line.
    public func run(lines: BoundedQueue<String>, debounce: Double) -> Bool {
        var debouncer = QueryDebouncer(interval: debounce)
        var ended = false
        while !stopping && !ended {
            let deadline = debouncer.deadline ?? (monotonicSeconds() + 3600)
            let batch = lines.popBatch(until: deadline)
            let now = monotonicSeconds()
            if batch.isEmpty && lines.isFinished { ended = true }
            for line in batch {
                let query = line.trimmingWhitespace()
                guard !query.isEmpty else { continue }
                // --debounce 0: every line is searched, however many came in one read.
                if debounce <= 0 {
                    if let pages = plan(query) { emit(pages) }
                    continue
                }
                debouncer.type(query, at: now)
            }
            if let query = debouncer.due(at: now) ?? (ended ? debouncer.flush() : nil) {
                if let pages = plan(query) { emit(pages) }
            }
        }
        follow()
        return failed || refused
    }

    private var stopping: Bool { stage.stopReason != nil || refused }

    // MARK: Planning

    private func plan(_ query: String?) -> [PageRequest]? {
        let section = query ?? configuration.endpoint.rawValue
        let api = configuration.provider.api
        if let query, let longest = api.maxQueryLength, query.count > longest {
            report(query: query, FetchFailure("query_too_long", "the query is \(query.count) characters; \(api.displayName) takes at most \(longest)"))
            return nil
        }
        var total = configuration.fixedTotal
        if total == nil && api.countsResults {
            let ping = PageRequest(endpoint: configuration.endpoint, query: query, section: section, offset: 0,
                                   limit: 1, rating: configuration.rating, lang: configuration.lang, total: nil,
                                   provider: configuration.provider)
            switch self.ping(ping) {
            case .success(let known): total = known
            case .failure(let failure):
                report(query: query, failure)
                return nil
            }
        }
        let pages = api.pages(endpoint: configuration.endpoint, query: query, section: section, total: total,
                              limit: configuration.limit, maxResults: configuration.maxResults,
                              rating: configuration.rating, lang: configuration.lang)
        if let first = pages.first { planned.append(first) }
        if pages.isEmpty { stage.diagnostics.warning("\(query.map { "\"\($0)\"" } ?? "trending"): no results") }
        return pages
    }

    /// Asks for one result to learn `total_count` (nil when the API leaves it
    /// out): from the API cache when it can, else one call on the engine.
    private func ping(_ page: PageRequest) -> Result<Int?, FetchFailure> {
        guard let engine, let access else { return .success(nil) }
        if let result = configuration.cache?.answer(page, access: access) { return .success(result.totalCount) }
        let job = PingJob(page: page)
        engine.perform([job])
        if let refusal = job.refusal {
            stage.diagnostics.error(refusal)
            refused = true
        }
        return job.result ?? .failure(.interrupted)
    }

    private func report(query: String?, _ failure: FetchFailure) {
        failed = true
        let message = access?.redact(failure.message) ?? failure.message
        if failure.code != "unauthorized" {
            stage.diagnostics.warning("\(query.map { "\"\($0)\"" } ?? "trending"): \(failure.code): \(message)")
        }
        let record = JSONRecord()
        record.set(PageRequest.Field.kind, PageRequest.kind)
        if configuration.provider != .recordDefault { record.set(PageRequest.Field.provider, configuration.provider.rawValue) }
        record.set(PageRequest.Field.endpoint, configuration.endpoint.rawValue)
        if let query { record.set(PageRequest.Field.query, query) }
        record.set(PageRequest.Field.section, query ?? configuration.endpoint.rawValue)
        stage.makeError(record, code: failure.code, message: message)
        stage.output.push(record.serialized())
    }

    private func emit(_ pages: [PageRequest]) {
        for var page in pages {
            page.avoid = (configuration.ladder?.avoid[page.section] ?? AvoidList()).merged(with: configuration.avoid)
            page.freshRounds = configuration.ladder?.freshRounds
            let record = page.record()
            configuration.ladder?.tag(record, section: page.section)
            page.writeListing(to: record)
            guard stage.output.push(record.serialized()) else { return }
        }
    }

    // MARK: Following

    /// Every interval, asks again for the first page of each list, so results
    /// newer than those seen flow on (the lister drops the ones it has seen).
    private func follow() {
        guard let interval = configuration.followInterval, !planned.isEmpty else { return }
        while !stopping && stage.nap(interval) {
            emit(planned)
        }
    }
}
