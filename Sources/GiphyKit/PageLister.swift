import CCurl
import Foundation
import FetchKit
import SposureKit

//  giphy-pages list, the URL lister:
//
//  stdin ─reader─▶ [input queue] ─▶ engine thread ───────────────────▶ [output queue] ─writer─▶ stdout
//                                    │ page records                      ▲ reorder (page order)
//                                    ▼                                   │
//                              waiting pages ─▶ HTTPClient (libcurl multi, ≤ --concurrency)
//                                    ▲   rate limit, --max-calls   │ JSON via jansson
//                                    └──── retries (backoff) ◀─────┘ → gif records, deduplicated

/// The engine of `giphy-pages list`: runs each page request and writes one
/// `gif` record per result, in page order.
public final class PageLister {
    private let stage: Stage
    private let access: GiphyAccess
    private let configuration: ListConfiguration
    private let client: HTTPClient
    private let sequencer: OutputSequencer
    private var inputDone = false

    private final class Job {
        let sequence: Int
        let page: PageRequest
        let record: JSONRecord
        let line: Int
        var attempts = 0
        var waited = 0.0
        var notBefore = 0.0
        init(sequence: Int, page: PageRequest, record: JSONRecord, line: Int) {
            self.sequence = sequence
            self.page = page
            self.record = record
            self.line = line
        }
    }

    /// What a finished page request amounts to, waiting for its turn.
    private enum PageOutcome {
        case results(Job, GiphyResponse.Page)
        case lines([[UInt8]])
    }

    private var waiting: [Job] = []
    /// Page requests in input order, and the outcomes that came back: repeats
    /// are dropped in page order, whatever order the answers arrive in.
    private var pageOrder: [Int] = []
    private var pageOrderHead = 0
    private var pageOutcomes: [Int: PageOutcome] = [:]
    private var active: [Int: Job] = [:]
    private var totals: [String: Int] = [:]
    private var seen: RecentIDs
    private var limiter: RateLimiter
    private var calls = 0
    private var unauthorized = false
    private let statistics = ListStatistics()
    private var lastProgress = 0.0

    /// An engine for `stage`, calling the API through `access`.
    public init(stage: Stage, access: GiphyAccess, configuration: ListConfiguration) throws(CurlError) {
        guard let client = HTTPClient(concurrency: configuration.concurrency, timeout: configuration.timeout) else {
            throw CurlError(code: CURLE_FAILED_INIT)
        }
        self.stage = stage
        self.access = access
        self.configuration = configuration
        self.client = client
        sequencer = OutputSequencer(output: stage.output, ordered: true, window: configuration.window)
        seen = RecentIDs(capacity: configuration.dedupCapacity)
        limiter = RateLimiter(calls: configuration.rateCalls, period: configuration.ratePeriod, now: monotonicSeconds())
        let wakeup = client.wakeup
        stage.input.onPush = wakeup
        stage.onStop = { [input = stage.input] in
            input.close()
            wakeup()
        }
    }

    /// Runs until the input ends, a stop, or a refused key; returns true when
    /// some records became error records.
    public func run() -> Bool {
        while true {
            if stage.stopReason != nil || unauthorized {
                shutDown()
                break
            }
            admit(stage.input.tryPopBatch(max: inputDone ? 0 : sequencer.room))
            let rateWait = startRequests()
            sequencer.deliver()
            if inputDone && waiting.isEmpty && active.isEmpty && !sequencer.hasPending { break }
            if active.isEmpty && waiting.isEmpty {
                if sequencer.hasPending {
                    sequencer.deliverOneWaiting()
                    continue
                }
                if !inputDone && sequencer.room > 0 {
                    let batch = stage.input.popBatch(max: sequencer.room)
                    if batch.isEmpty { inputDone = true }
                    admit(batch)
                    continue
                }
            }
            let timeout = pollTimeout(rateWait: rateWait)
            for response in client.wait(milliseconds: timeout) { complete(response) }
            showProgress()
        }
        stage.diagnostics.clearProgress()
        if statistics.duplicates > 0 {
            stage.diagnostics.note("dropped \(statistics.duplicates) repeated GIFs")
        }
        return statistics.failed > 0 || unauthorized
    }

    // MARK: Admission

    private func admit(_ batch: [InputItem]) {
        if batch.isEmpty && stage.input.isFinished { inputDone = true }
        statistics.failed += sequencer.admit(batch, stage: stage) { admitRecord($0, $1) }
    }

    private func admitRecord(_ sequence: Int, _ input: InputRecord) {
        var record = input.record
        if configuration.retryErrors && record.kind == "error" && record.string("stage") == stage.name && record.has("offset") {
            record = record.copy()
            record.set("kind", "page")
            for key in ["stage", "code", "error", "attempts"] { record.remove(key) }
        }
        guard record.kind == "page" else {
            return sequencer.emit(sequence, input.raw)
        }
        statistics.pages += 1
        let page: PageRequest
        do {
            page = try PageRequest(record: record)
        } catch {
            return fail(sequence, record, line: input.line, FetchFailure("bad_page", error.description))
        }
        if page.isPastOffsetCap {
            return fail(sequence, record, line: input.line, FetchFailure(
                "offset_cap", "offset \(page.offset) is past the \(page.endpoint.rawValue) endpoint's cap of \(page.endpoint.offsetCap): the API serves nothing there"))
        }
        waiting.append(Job(sequence: sequence, page: page, record: record, line: input.line))
        pageOrder.append(sequence)
    }

    /// Records a page's outcome and hands on every outcome whose turn has come.
    private func settle(_ sequence: Int, _ outcome: PageOutcome) {
        pageOutcomes[sequence] = outcome
        while pageOrderHead < pageOrder.count, let next = pageOutcomes.removeValue(forKey: pageOrder[pageOrderHead]) {
            let turn = pageOrder[pageOrderHead]
            pageOrderHead += 1
            switch next {
            case .results(let job, let page): sequencer.emit(turn, records(for: job, page))
            case .lines(let lines): sequencer.emit(turn, lines)
            }
        }
        if pageOrderHead > 1024 && pageOrderHead * 2 > pageOrder.count {
            pageOrder.removeFirst(pageOrderHead)
            pageOrderHead = 0
        }
    }

    // MARK: Requests

    /// Starts what may start now; returns seconds until the rate limit allows another call.
    private func startRequests() -> Double {
        let now = monotonicSeconds()
        var index = 0
        while client.activeCount < configuration.concurrency && index < waiting.count {
            let job = waiting[index]
            if job.notBefore > now {
                index += 1
                continue
            }
            if let total = totals[job.page.listKey], job.page.offset >= total {
                // Past the end of a list whose size we know: no call needed.
                waiting.remove(at: index)
                statistics.skipped += 1
                settle(job.sequence, .lines([]))
                continue
            }
            if let maxCalls = configuration.maxCalls, calls >= maxCalls {
                waiting.remove(at: index)
                fail(job, FetchFailure("max_calls", "--max-calls \(maxCalls) reached before this page; run it later with --retry-errors"))
                continue
            }
            let wait = limiter.wait(at: now)
            if wait > 0 { return wait }
            waiting.remove(at: index)
            job.attempts += 1
            calls += 1
            limiter.take(at: now)
            if let failure = client.start(access.url(job.page), tag: job.sequence) {
                fail(job, failure)
                continue
            }
            active[job.sequence] = job
        }
        return 0
    }

    private func complete(_ response: HTTPClient.Response) {
        guard let job = active.removeValue(forKey: response.tag) else { return }
        statistics.calls += 1
        let outcome: GiphyResponse
        if let failure = response.failure {
            outcome = .failure(failure)
        } else {
            outcome = GiphyResponse.interpret(status: response.status, body: response.body, url: access.displayURL(job.page))
        }
        switch outcome {
        case .page(let page):
            if let total = page.totalCount { totals[job.page.listKey] = total }
            statistics.pagesDone += 1
            settle(job.sequence, .results(job, page))
        case .unauthorized(let message):
            if !unauthorized { stage.diagnostics.error(access.refusal(message)) }
            unauthorized = true
            fail(job, FetchFailure("unauthorized", access.refusal(message)), quiet: true)
        case .failure(let failure):
            let delay = response.retryAfter.map(Double.init) ?? configuration.backoff.delay(attempt: job.attempts)
            if failure.transient && job.waited + delay <= configuration.maxWait {
                statistics.retries += 1
                job.waited += delay
                job.notBefore = monotonicSeconds() + delay
                waiting.insert(job, at: 0)
            } else {
                fail(job, failure)
            }
        }
    }

    /// The `gif` records of a page, repeats dropped, problems as error records.
    private func records(for job: Job, _ page: GiphyResponse.Page) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for (index, item) in page.items.enumerated() {
            if let id = item.string("id"), !seen.insert(id) {
                statistics.duplicates += 1
                continue
            }
            switch GIFRecord.make(item: item, index: index, page: job.page, pageRecord: job.record, renditions: configuration.renditions) {
            case .success(let record):
                statistics.gifs += 1
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

    private func fail(_ job: Job, _ failure: FetchFailure, quiet: Bool = false) {
        let line = errorLine(job.record, line: job.line, failure, attempts: job.attempts, quiet: quiet)
        settle(job.sequence, .lines([line]))
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

    private func pollTimeout(rateWait: Double) -> Int {
        var timeout = stage.diagnostics.isTerminal ? 100.0 : 1000.0
        if sequencer.hasPending { timeout = 5 }
        let now = monotonicSeconds()
        if rateWait > 0 { timeout = min(timeout, rateWait * 1000 + 1) }
        if let soonest = waiting.map(\.notBefore).min(), soonest > now {
            timeout = min(timeout, (soonest - now) * 1000 + 1)
        } else if !waiting.isEmpty && client.activeCount < configuration.concurrency && rateWait == 0 {
            timeout = 0
        }
        return Int(timeout)
    }

    // MARK: Stopping

    /// Every page already read gets its line: in flight or waiting, it becomes
    /// an error record (`interrupted`, or `unauthorized` after a refused key)
    /// that `--retry-errors` takes back.
    private func shutDown() {
        client.cancelAll()
        stage.input.close()
        var jobs = Array(active.values) + waiting
        active.removeAll()
        waiting.removeAll()
        while case let batch = stage.input.tryPopBatch(), !batch.isEmpty { admit(batch) }
        jobs += waiting
        waiting.removeAll()
        let failure = unauthorized
            ? FetchFailure("unauthorized", "not run: the API refused the key")
            : FetchFailure.interrupted
        for job in jobs.sorted(by: { $0.sequence < $1.sequence }) { fail(job, failure, quiet: true) }
        guard stage.stopReason != .downstreamClosed else { return sequencer.dropPending() }
        sequencer.flush()
    }

    private func showProgress() {
        guard stage.diagnostics.isTerminal && !stage.diagnostics.quiet else { return }
        let now = monotonicSeconds()
        guard now - lastProgress > 0.1 else { return }
        lastProgress = now
        stage.diagnostics.progress(statistics.line(active: active.count, calls: calls))
    }
}

/// Counters for the progress line.
final class ListStatistics {
    var pages = 0
    var pagesDone = 0
    var gifs = 0
    var duplicates = 0
    var skipped = 0
    var retries = 0
    var failed = 0
    var calls = 0

    func line(active: Int, calls: Int) -> String {
        var parts = ["\(pagesDone)/\(pages) pages", "\(gifs) gifs", "\(calls) calls", "\(active) active"]
        if duplicates > 0 { parts.append("\(duplicates) repeats dropped") }
        if skipped > 0 { parts.append("\(skipped) pages past the end") }
        if retries > 0 { parts.append("\(retries) retries") }
        if failed > 0 { parts.append("\(failed) failed") }
        return parts.joined(separator: " · ")
    }
}
