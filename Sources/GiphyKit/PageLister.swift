import CCurl
import Foundation
import FetchKit
import SposureKit

//  giphy-pages list, the URL lister, on the ``RequestEngine``:
//
//  stdin ─reader─▶ [input queue] ─▶ engine thread ───────────────────▶ [output queue] ─writer─▶ stdout
//                                    │ page records                      ▲ OutputSequencer: a page's gif
//                                    ▼                                   │ records are made at its turn,
//                              waiting pages ─▶ curl multi (≤ --concurrency)   so repeats drop in page order
//                                    ▲   rate limit, --max-calls   │ JSON via jansson
//                                    └──── retries (backoff) ◀─────┘

/// The engine of `giphy-pages list`: runs each page request and writes one
/// `gif` record per result, in page order.
public final class PageLister {
    private let client: PageListClient

    /// An engine for `stage`, calling the API through `access`.
    public init(stage: Stage, access: GiphyAccess, configuration: ListConfiguration) throws(CurlError) {
        client = try PageListClient(stage: stage, access: access, configuration: configuration)
    }

    /// Runs until the input ends, a stop, or a refused key; returns true when
    /// some records became error records.
    public func run() -> Bool { client.run() }
}

/// One page request.
final class PageJob: RequestJob {
    let page: PageRequest
    let record: JSONRecord
    let line: Int

    init(sequence: Int, page: PageRequest, record: JSONRecord, line: Int) {
        self.page = page
        self.record = record
        self.line = line
        super.init(sequence: sequence)
    }
}

/// What `giphy-pages list` makes of page records and API answers.
final class PageListClient {
    private let stage: Stage
    private let access: GiphyAccess
    private let configuration: ListConfiguration
    private let sequencer: OutputSequencer
    private var engine: RequestEngine<PageListClient>!

    private var totals: [String: Int] = [:]
    private var seen: RecentIDs
    private var limiter: RateLimiter
    private var calls = 0
    private var unauthorized = false
    private let statistics = RequestStatistics()

    init(stage: Stage, access: GiphyAccess, configuration: ListConfiguration) throws(CurlError) {
        self.stage = stage
        self.access = access
        self.configuration = configuration
        sequencer = OutputSequencer(output: stage.output, ordered: true, window: configuration.window)
        seen = RecentIDs(capacity: configuration.dedupCapacity)
        limiter = RateLimiter(calls: configuration.rateCalls, period: configuration.ratePeriod, now: monotonicSeconds())
        let retry = RetryPolicy(maxWait: configuration.maxWait, backoff: configuration.backoff)
        engine = try RequestEngine(stage: stage, sequencer: sequencer, client: self,
                                   limits: RequestLimits(concurrency: configuration.concurrency, retry: retry))
    }

    func run() -> Bool {
        engine.run()
        engine = nil  // the engine holds this client
        if statistics.duplicates > 0 {
            stage.diagnostics.note("dropped \(statistics.duplicates) repeated GIFs")
        }
        return statistics.failed > 0 || unauthorized
    }

    /// The `gif` records of a page, repeats dropped, problems as error records.
    private func records(for job: PageJob, _ page: GiphyResponse.Page) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for (index, item) in page.items.enumerated() {
            if let id = item.string("id"), !seen.insert(id) {
                statistics.duplicates += 1
                continue
            }
            switch GIFRecord.make(item: item, index: index, page: job.page, pageRecord: job.record, renditions: configuration.renditions) {
            case .success(let record):
                statistics.made += 1
                lines.append(record.serialized())
            case .failure(let problem):
                statistics.failed += 1
                let record = JSONRecord()
                record.set("kind", "gif")
                if let id = problem.id { record.set("id", id) }
                record.set("title", GIFRecord.cleanTitle(item.string("title") ?? ""))
                if let query = job.page.query { record.set("query", query) }
                record.set("section", job.page.section)
                record.set("rank", job.page.offset + index)
                stage.makeError(record, code: problem.code, message: problem.message)
                stage.diagnostics.warning("stdin:\(job.line): \(problem.code): \(problem.message)")
                lines.append(record.serialized())
            }
        }
        return lines
    }

    // MARK: Failures

    private func fail(_ job: PageJob, _ failure: FetchFailure, quiet: Bool) {
        let line = errorLine(job.record, line: job.line, failure, attempts: job.attempts, quiet: quiet)
        sequencer.emit(job.sequence, line)
    }

    private func fail(_ sequence: Int, _ record: JSONRecord, line: Int, _ failure: FetchFailure) {
        sequencer.emit(sequence, errorLine(record, line: line, failure, attempts: 0, quiet: false))
    }

    /// The error record for a page that failed, reported on stderr unless `quiet`.
    private func errorLine(_ record: JSONRecord, line: Int, _ failure: FetchFailure, attempts: Int, quiet: Bool) -> [UInt8] {
        statistics.failed += 1
        let message = access.redact(failure.message)
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
        if configuration.retryErrors && record.kind == "error" && record.string("stage") == stage.name && record.has("offset") {
            record = record.copy()
            record.set("kind", "page")
            for key in ["stage", "code", "error", "attempts"] { record.remove(key) }
        }
        guard record.kind == "page" else {
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
                "offset_cap", "offset \(page.offset) is past the \(page.endpoint.rawValue) endpoint's cap of \(page.endpoint.offsetCap): the API serves nothing there"))
            return nil
        }
        return PageJob(sequence: sequence, page: page, record: record, line: input.line)
    }

    func gate(_ job: PageJob, now: UInt64) -> RequestGate {
        if let total = totals[job.page.listKey], job.page.offset >= total {
            // Past the end of a list whose size we know: no call needed.
            statistics.skipped += 1
            sequencer.emit(job.sequence, [[UInt8]]())
            return .settled
        }
        if let maxCalls = configuration.maxCalls, calls >= maxCalls {
            fail(job, FetchFailure("max_calls", "--max-calls \(maxCalls) reached before this page; run it later with --retry-errors"), quiet: false)
            return .settled
        }
        let seconds = Double(now) / 1e9
        let wait = limiter.wait(at: seconds)
        if wait > 0 { return .pause(seconds: wait) }
        return .start
    }

    func start(_ job: PageJob, on easy: CurlEasy, share: UnsafeMutableRawPointer?) -> Result<MemoryTransfer, FetchFailure> {
        calls += 1
        limiter.take(at: monotonicSeconds())
        let transfer = MemoryTransfer(tag: job.sequence, easy: easy)
        if let failure = transfer.configure(url: access.url(job.page), connectTimeout: 10, timeout: configuration.timeout, share: share) {
            return .failure(failure)
        }
        return .success(transfer)
    }

    func complete(_ job: PageJob, _ transfer: MemoryTransfer, result: CURLcode, easy: CurlEasy) -> RequestCompletion {
        statistics.calls += 1
        let response = transfer.response(result)
        let outcome: GiphyResponse
        if let failure = response.failure {
            outcome = .failure(failure)
        } else {
            outcome = GiphyResponse.interpret(status: response.status, body: response.body, url: access.displayURL(job.page))
        }
        switch outcome {
        case .page(let page):
            if let total = page.totalCount { totals[job.page.listKey] = total }
            statistics.done += 1
            sequencer.emit(job.sequence) { [self] in records(for: job, page) }
            return .done
        case .unauthorized(let message):
            if !unauthorized { stage.diagnostics.error(access.refusal(message)) }
            unauthorized = true
            fail(job, FetchFailure("unauthorized", access.refusal(message)), quiet: true)
            return .stop(FetchFailure("unauthorized", "not run: the API refused the key"))
        case .failure(let failure):
            return .failed(failure)
        }
    }

    func discard(_ transfer: MemoryTransfer) {}

    func fail(_ job: PageJob, _ failure: FetchFailure) { fail(job, failure, quiet: false) }

    func interrupt(_ jobs: [PageJob], with failure: FetchFailure) {
        for job in jobs { fail(job, failure, quiet: true) }
    }

    func takeDeferred() -> Int { 0 }

    var deferredCount: Int { 0 }

    func finishDeferred() {}

    func noteBadLines(_ count: Int) { statistics.failed += count }

    func noteRetry() { statistics.retries += 1 }

    func progressLine(active: Int) -> String {
        var parts = ["\(statistics.done)/\(statistics.records) pages", "\(statistics.made) gifs", "\(calls) calls", "\(active) active"]
        if statistics.duplicates > 0 { parts.append("\(statistics.duplicates) repeats dropped") }
        if statistics.skipped > 0 { parts.append("\(statistics.skipped) pages past the end") }
        if statistics.retries > 0 { parts.append("\(statistics.retries) retries") }
        if statistics.failed > 0 { parts.append("\(statistics.failed) failed") }
        return parts.joined(separator: " · ")
    }
}
