import FoundationEssentials
import Glibc
import NetKit
import LadderKit
import RecordKit
import SposureKit

//  giphy-pages list, the URL lister, on the ``RequestEngine``:
//
//  stdin ─reader─▶ [input queue] ─▶ engine thread ───────────────────▶ [output queue] ─writer─▶ stdout
//                                    │ page records ── API cache hit ──▶ ▲ OutputSequencer: a page's gif
//                                    ▼   (no call)                       │ records are made at its turn,
//                              waiting pages ─▶ curl multi (≤ --concurrency)   so repeats drop in page order
//                                    ▲   call budget (flock'd, on disk),   │ JSON via jansson; answers
//                                    │   --max-calls                       │ kept in the API cache
//                                    └──── retries (backoff) ◀─────────────┘
//
//  Each page record names its API (`provider`, absent = giphy): the access,
//  the URL, the reading of the answer and the gif records are the provider's;
//  the loop is the one RequestEngine.

/// The engine of `giphy-pages list`: runs each page request and writes one
/// `gif` record per result, in page order.
public final class PageLister {
    private let client: PageListClient

    /// An engine for `stage`, calling each page's API through its access in `accesses`.
    public init(stage: Stage, accesses: [GIFProvider: APIAccess], configuration: ListConfiguration) throws(CurlError) {
        client = try PageListClient(stage: stage, accesses: accesses, configuration: configuration)
    }

    /// An engine for `stage`, calling one API through `access`.
    public convenience init(stage: Stage, access: APIAccess, configuration: ListConfiguration) throws(CurlError) {
        try self.init(stage: stage, accesses: [access.provider: access], configuration: configuration)
    }

    /// Runs until the input ends, a stop, or a refused key; returns true when
    /// some records became error records.
    public func run() -> Bool { client.run() }
}

/// What `giphy-pages list` makes of page records and API answers.
final class PageListClient {
    private let stage: Stage
    private let accesses: [GIFProvider: APIAccess]
    private let configuration: ListConfiguration
    private let sequencer: OutputSequencer
    private var engine: RequestEngine<PageListClient>!

    /// Where each list ends, as the answers say.
    private var ends = ListEnds()
    /// Pages asked in this run: asked again (--follow), they skip the API cache.
    private var asked: Set<String> = []
    private var seen: RecentIDs
    private var budgets: [GIFProvider: CallBudget] = [:]
    /// Monotonic nanoseconds before which a provider's budget allows no call:
    /// its pages wait, the other provider's go on, and the budget file is
    /// not read again for every waiting page.
    private var budgetPauses: [GIFProvider: UInt64] = [:]
    private var missingKeys: Set<GIFProvider> = []
    private var calls = 0
    private var cacheHits = 0
    private var cacheWarned = false
    /// The APIs that refused their key: their pages are not run. The run
    /// stops when every API it has a key for has refused it.
    private var refused: Set<GIFProvider> = []
    private let statistics = RequestStatistics()
    /// What was left out before fetching, or held back (only on the engine's thread).
    private var tally = SkipTally()
    /// The pages in flight, by sequence, of each API that takes few at once (``GIFAPI/maxConcurrency``).
    private var inFlight: [GIFProvider: Set<Int>] = [:]

    init(stage: Stage, accesses: [GIFProvider: APIAccess], configuration: ListConfiguration) throws(CurlError) {
        self.stage = stage
        self.accesses = accesses
        self.configuration = configuration
        sequencer = OutputSequencer(output: stage.output, ordered: true, window: configuration.window)
        seen = RecentIDs(capacity: configuration.dedupCapacity)
        let retry = RetryPolicy(maxWait: configuration.maxWait, backoff: configuration.backoff)
        // Pages not yet run when a signal comes become `interrupted` records
        // that --retry-errors takes back, the ones still waiting on stdin too.
        stage.drainsInputOnStop = true
        engine = try RequestEngine(stage: stage, sequencer: sequencer, client: self,
                                   limits: RequestLimits(concurrency: configuration.concurrency, retry: retry,
                                                         maxTime: configuration.maxTime))
    }

    func run() -> Bool {
        engine.run()
        engine = nil  // the engine holds this client
        if statistics.duplicates > 0 {
            let count = statistics.duplicates
            stage.diagnostics.note("dropped \(count) repeated GIF\(count == 1 ? "" : "s")")
        }
        if let problem = configuration.ratedSkip?.readProblem { stage.diagnostics.warning("GIF ratings: \(problem)") }
        if let problem = configuration.offTopic?.readProblem { stage.diagnostics.warning("off-topic marks: \(problem)") }
        if let problem = configuration.fresh?.readProblem { stage.diagnostics.warning("GIFs seen: \(problem)") }
        // The GIFs seen lately come when the pages run out (not after a stop: nobody waits for them).
        if let fresh = configuration.fresh, stage.stopReason == nil {
            for line in fresh.release() where !stage.output.push(line) { break }
        }
        // A warning, not a note: a script or a log should see why GIFs are missing too.
        if let line = tally.line { stage.diagnostics.warning(line) }
        if cacheHits > 0 {
            stage.diagnostics.note("\(cacheHits) page\(cacheHits == 1 ? "" : "s") from the API cache (no call)")
        }
        return statistics.failed > 0 || !refused.isEmpty || !missingKeys.isEmpty
    }

    /// The access to `provider`; nil when its key is not set.
    private func access(_ provider: GIFProvider) -> APIAccess? { accesses[provider] }

    /// Redacts every key this run knows.
    private func redact(_ text: String) -> String { accesses.values.reduce(text) { $1.redact($0) } }

    /// The budget of `provider`'s calls (`--rate`, else the provider's own).
    private func budget(_ provider: GIFProvider) -> CallBudget {
        if let budget = budgets[provider] { return budget }
        let budget = CallBudget(provider: provider, rate: configuration.rate, folder: configuration.dataFolder)
        budget.report = { [stage] in stage.diagnostics.warning($0) }
        budgets[provider] = budget
        return budget
    }

    /// The `gif` records of an answer kept in the API cache, when there is a fresh one.
    private func cachedAnswer(_ page: PageRequest, access: APIAccess) -> GiphyResponse.Page? {
        let url = access.cacheKey(page)
        if asked.count >= 100_000 { asked.removeAll() }  // bounded: --follow asks the same pages for ever
        guard let cache = configuration.cache, asked.insert(url).inserted else { return nil }
        return cache.answer(page, access: access, redact: redact)
    }

    private func interpret(_ page: PageRequest, status: Int, body: [UInt8], access: APIAccess) -> GiphyResponse {
        page.provider.interpret(status: status, body: body, url: access.displayURL(page))
    }

    /// Learns what an answer says of its list's end, and hands on its records.
    private func accept(_ job: PageJob, _ answer: GiphyResponse.Page) {
        if !answer.outOfRange.isEmpty {
            // Read all the same: only a result whose id it was is lost (bad_item).
            stage.diagnostics.warning("stdin:\(job.line): the answer holds numbers past 64-bit integers or doubles ("
                + answer.outOfRange.map { RemoteText.clean($0) }.joined(separator: ", ")
                + "): read as reals, or null past a double's range")
        }
        if let note = ends.learn(answer, of: job.page) { stage.diagnostics.warning(note) }
        statistics.done += 1
        sequencer.emit(job.sequence) { [self] in records(for: job, answer) }
    }

    /// The `gif` records of a page, repeats dropped, problems as error records.
    private func records(for job: PageJob, _ page: GiphyResponse.Page) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        let provider = job.page.provider
        let api = provider.api
        let choices = configuration.choices(api)
        let avoid = job.page.avoid.merged(with: configuration.avoid)
        let seenAges = configuration.fresh?.ages(page: job.page, record: job.record) ?? [:]
        var counts = SkipTally.Counts()
        for (index, item) in api.kept(page.items, page: job.page).enumerated() {
            let key = provider.gifKey(of: item)
            if let key, !seen.insert(key) {
                statistics.duplicates += 1
                continue
            }
            // Left out before any fetch: a format the player cannot show, marked
            // off-topic, an avoid word, rated well above the rung.
            if let mime = api.unplayable(item) {
                counts.unplayable(RemoteText.clean(mime, limit: 60))
                continue
            }
            if let key, configuration.offTopic?.skips(key: key) == true {
                counts.offTopic += 1
                continue
            }
            if let word = avoid.match(api.text(of: item).all) {
                counts.avoid(word)
                continue
            }
            if let key, let skip = configuration.ratedSkip, skip.skips(key: key, page: job.record) {
                counts.rated += 1
                continue
            }
            switch api.make(item: item, index: index, page: job.page, pageRecord: job.record, choices: choices) {
            case .success(let record):
                statistics.made += 1
                if let key, let age = seenAges[key], let fresh = configuration.fresh {
                    counts.held += 1
                    if !fresh.hold(record.serialized(), age: age) { counts.dropped += 1 }
                    continue
                }
                lines.append(record.serialized())
            case .failure(let problem):
                statistics.failed += 1
                let record = GIFRecord(provider: provider, id: problem.id, title: api.text(of: item).title,
                                       page: job.page, index: index, chosen: nil).record()
                stage.makeError(record, code: problem.code, message: problem.message)
                stage.diagnostics.warning("stdin:\(job.line): \(problem.code): \(problem.message)")
                lines.append(record.serialized())
            }
        }
        if let summary = tally.add(counts, page: job.page, record: job.record, stage: stage.name) { lines.append(summary.serialized()) }
        return lines
    }

    // MARK: Failures

    private func fail(_ job: PageJob, _ failure: FetchFailure, quiet: Bool) {
        let line = errorLine(job.record, line: job.line, failure, attempts: job.attempts, quiet: quiet)
        sequencer.emit(job.sequence, line)
    }

    private func fail(_ sequence: Int, _ record: JSONRecord, line: Int, _ failure: FetchFailure, quiet: Bool = false) {
        sequencer.emit(sequence, errorLine(record, line: line, failure, attempts: 0, quiet: quiet))
    }

    /// The error record for a page that failed, reported on stderr unless `quiet`.
    private func errorLine(_ record: JSONRecord, line: Int, _ failure: FetchFailure, attempts: Int, quiet: Bool) -> [UInt8] {
        statistics.failed += 1
        let message = redact(failure.message)
        if !quiet {
            let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
            stage.diagnostics.warning("stdin:\(line): \(failure.code): \(message)\(tries)")
        }
        let error = stage.makeError(record.copy(), code: failure.code, message: message)
        if attempts > 1 { error.set("attempts", attempts) }
        return error.serialized()
    }
}

extension PageListClient: RequestClient {
    func admit(_ sequence: Int, _ input: InputRecord) -> PageJob? {
        var record = input.record
        if configuration.retryErrors && record.kind == ErrorRecord.kind && record.string(ErrorRecord.Field.stage) == stage.name && record.has(PageRecord.Field.offset) {
            record = record.copy()
            record.set(PageRecord.Field.kind, PageRecord.kind)
            for key in [ErrorRecord.Field.stage, ErrorRecord.Field.code, ErrorRecord.Field.error, ErrorRecord.Field.attempts] { record.remove(key) }
        }
        guard record.kind == PageRecord.kind else {
            sequencer.emit(sequence, input.raw)
            return nil
        }
        statistics.records += 1
        let page: PageRequest
        do {
            page = try PageRequest(record: record)
        } catch {
            fail(sequence, record, line: input.line, FetchFailure("bad_page", error.description))
            return nil
        }
        if page.isPastOffsetCap {
            fail(sequence, record, line: input.line, FetchFailure(
                "offset_cap", "offset \(page.offset) is past the \(page.endpoint.rawValue) endpoint's cap of \(page.offsetCap ?? 0): the API serves nothing there"))
            return nil
        }
        let job = PageJob(sequence: sequence, page: page, record: record, line: input.line)
        guard let access = access(page.provider) else {
            let missing = APIAccess.MissingKey(provider: page.provider)
            if missingKeys.insert(page.provider).inserted { stage.diagnostics.error(missing.description) }
            fail(sequence, record, line: input.line, FetchFailure("no_key", "\(page.provider.keyVariable) is not set"), quiet: true)
            return nil
        }
        if let answer = cachedAnswer(page, access: access) {
            cacheHits += 1
            stage.diagnostics.trace("from the API cache: \(access.displayURL(page))")
            accept(job, answer)
            return nil
        }
        return job
    }

    func gate(_ job: PageJob, now: UInt64) -> RequestGate {
        switch ends.verdict(for: job.page) {
        case .ask:
            break
        case .pastEnd(let note):
            // Past the end of a list whose size we know: no call needed.
            statistics.skipped += 1
            stage.diagnostics.trace("past the end of its list, no call: \(describe(job))")
            if let note { stage.diagnostics.warning(note) }
            sequencer.emit(job.sequence, [[UInt8]]())
            return .settled
        case .ended(let failure):
            statistics.skipped += 1
            fail(job, failure, quiet: true)  // said once a list, when the empty page came
            return .settled
        }
        if let maxCalls = configuration.maxCalls, calls >= maxCalls {
            fail(job, FetchFailure("max_calls", "--max-calls \(maxCalls) reached before this page; run it later with --retry-errors"), quiet: false)
            return .settled
        }
        let provider = job.page.provider
        if refused.contains(provider) {
            fail(job, Self.notRun(provider), quiet: true)
            return .settled
        }
        if let until = budgetPauses[provider], until > now { return .pause(seconds: Double(until - now) / 1e9) }
        if let most = provider.api.maxConcurrency, inFlight[provider, default: []].count >= most { return .later }
        let budget = budget(provider)
        let wait = budget.take()
        if wait == 0 { return .start }
        if wait <= configuration.maxWait {
            budgetPauses[provider] = now + UInt64(wait * 1e9)
            stage.diagnostics.trace("call budget (--rate \(budget.rateText)): the next \(provider.rawValue) call in \(String(cFormat: "%.2f", wait))s")
            return .pause(seconds: wait)
        }
        stage.diagnostics.trace("call budget spent (--rate \(budget.rateText)), next call in \(Int(wait.rounded(.up)))s: \(describe(job))")
        fail(job, CallBudget.spent(budget, wait: wait), quiet: false)
        return .settled
    }

    func start(_ job: PageJob, on handle: RequestHandle) -> Result<MemoryTransfer, FetchFailure> {
        calls += 1
        if job.page.provider.api.maxConcurrency != nil { inFlight[job.page.provider, default: []].insert(job.sequence) }
        guard let access = access(job.page.provider) else { return .failure(FetchFailure("no_key", "\(job.page.provider.keyVariable) is not set")) }
        return MemoryTransfer.get(access.url(job.page), on: handle, tag: job.sequence, timeout: configuration.timeout)
    }

    func complete(_ job: PageJob, _ transfer: MemoryTransfer, result: TransferResult, handle: RequestHandle) -> RequestCompletion {
        statistics.calls += 1
        inFlight[job.page.provider]?.remove(job.sequence)
        let response = transfer.response(result)
        // A call the API refused for its rate (429) served nothing: it does
        // not count against --max-calls, so its retry is not the page's last
        // chance (issue 16 #11: --max-calls 2 gave one page).
        if response.status == 429 { calls -= 1 }
        guard let access = access(job.page.provider) else { return .failed(FetchFailure("no_key", "\(job.page.provider.keyVariable) is not set")) }
        // Every key of the run masked in every string: an answer that echoes
        // one (a title, a URL) gives it to no record and no cache file.
        let body = APIAccess.masked(answer: response.body, redact: redact)
        let outcome: GiphyResponse
        if let failure = response.failure {
            outcome = .failure(failure)
        } else {
            outcome = interpret(job.page, status: response.status, body: body, access: access)
        }
        switch outcome {
        case .page(let page):
            keep(job.page, body: body, access: access)
            accept(job, page)
            return .done
        case .unauthorized(let message):
            let provider = job.page.provider
            if refused.insert(provider).inserted { stage.diagnostics.error(access.refusal(message)) }
            fail(job, FetchFailure("unauthorized", access.refusal(message)), quiet: true)
            // Another API's pages in the same stream go on; with none left, the run stops.
            // (An API that needs no key is refused none: it does not keep the run going.)
            guard Set(accesses.keys.filter(\.api.needsKey)).isSubset(of: refused) else { return .done }
            return .stop(refused.count == 1 ? Self.notRun(provider) : FetchFailure("unauthorized", "not run: both APIs refused their keys"))
        case .failure(let failure):
            return .failed(failure)
        }
    }

    /// The failure of a page not run because its API refused the key.
    private static func notRun(_ provider: GIFProvider) -> FetchFailure {
        FetchFailure("unauthorized", "not run: the \(provider.displayName) API refused the key")
    }

    /// Keeps a good answer in the API cache; a cache that cannot be written is said once.
    private func keep(_ page: PageRequest, body: [UInt8], access: APIAccess) {
        guard let cache = configuration.cache else { return }
        do {
            try cache.keep(page, access: access, body: body)
        } catch {
            if !cacheWarned { stage.diagnostics.warning("API cache: \(error.description)") }
            cacheWarned = true
        }
    }

    func fail(_ job: PageJob, _ failure: FetchFailure) {
        inFlight[job.page.provider]?.remove(job.sequence)  // its deadline passed in flight
        fail(job, failure, quiet: false)
    }

    func interrupt(_ jobs: [PageJob], with failure: FetchFailure) {
        for job in jobs {
            inFlight[job.page.provider]?.remove(job.sequence)
            fail(job, failure, quiet: true)
        }
    }

    func noteBadLines(_ count: Int) { statistics.failed += count }

    func noteRetry(_ job: PageJob, _ failure: FetchFailure, delay: Double) { statistics.retries += 1 }

    func describe(_ job: PageJob) -> String {
        access(job.page.provider)?.displayURL(job.page) ?? "\(job.page.provider.rawValue) page at offset \(job.page.offset)"
    }

    func progressLine(active: Int) -> String {
        var parts = ["\(statistics.done)/\(statistics.records) pages", "\(statistics.made) gifs", "\(calls) calls", "\(active) active"]
        if statistics.duplicates > 0 { parts.append("\(statistics.duplicates) repeats dropped") }
        if statistics.skipped > 0 { parts.append("\(statistics.skipped) pages past the end") }
        if cacheHits > 0 { parts.append("\(cacheHits) from the cache") }
        if statistics.retries > 0 { parts.append("\(statistics.retries) retries") }
        if statistics.failed > 0 { parts.append("\(statistics.failed) failed") }
        return parts.joined(separator: " · ")
    }
}
