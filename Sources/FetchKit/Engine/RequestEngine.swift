import CCurl
import SposureKit

//  The concurrent-request engine of the network stages (fetch-images,
//  giphy-pages list), one thread driving libcurl multi:
//
//  stdin ─reader─▶ [input queue] ─▶ engine thread (run) ─────────────────────────▶ [output queue] ─writer─▶ stdout
//                                    │ admits ≤ window records: client.admit       ▲
//                                    │   (its result now, or a job) ───────────────┤ OutputSequencer
//                                    ▼                                             │ (input order, or as done)
//                              waiting jobs ─client.gate─▶ curl multi ─────────────┤ client.complete: lines,
//                                    ▲        (≤ concurrency, ≤ per host)  │       │ a failure, or later
//                                    └──── retrying (notBefore) ◀──────────┘       │ (client.takeDeferred)
//                                          jittered backoff, Retry-After
//
//  The engine never blocks while transfers are in flight, so curl's timers stay
//  honest; a push into the input queue or a stop request wakes curl_multi_poll.
//  On a stop, every record already read gets its line: jobs in flight, waiting
//  or retrying, and the records still queued, go to ``RequestClient/interrupt(_:with:)``.

/// One record's work in a ``RequestEngine``: its place in the output order and
/// its attempts. A client subclasses it with what its requests need.
open class RequestJob {
    /// Its place in the input order.
    public let sequence: Int
    /// Transfers are counted per host against the per-host limit ("" for no host).
    public let host: String
    /// Attempts started so far.
    public var attempts = 0
    /// Monotonic nanoseconds before which a retry must not start.
    public var notBefore: UInt64 = 0
    /// Seconds spent waiting between attempts, in all.
    public var waited = 0.0
    /// Monotonic nanoseconds by which the job must be done, retries included
    /// (set when its first attempt starts, from ``RequestLimits/maxTime``).
    public var deadline: UInt64?

    /// A job for item `sequence`, fetched from `host`.
    public init(sequence: Int, host: String = "") {
        self.sequence = sequence
        self.host = host
    }
}

/// Whether a waiting job may start now.
public enum RequestGate {
    /// Start it.
    case start
    /// Not yet: leave it waiting and look at the next one.
    case later
    /// The client has settled it without a request (its result is out): drop it.
    case settled
    /// Not for `seconds` (a rate limit): leave it waiting; jobs the limit
    /// does not hold back (another API's pages) may start meanwhile.
    case pause(seconds: Double)
}

/// What a finished transfer amounts to, as the client reads it.
public enum RequestCompletion {
    /// The client has handed on the job's result.
    case done
    /// The result is being finished elsewhere; ``RequestClient/takeDeferred()`` tells when.
    case deferred
    /// It failed: retried by the ``RetryPolicy`` when transient, else handed to
    /// ``RequestClient/fail(_:_:)``.
    case failed(FetchFailure)
    /// The client has handed on the job's result, and the run must stop: every
    /// other job is interrupted with `failure` (a refused key).
    case stop(FetchFailure)
}

/// When a transient failure is tried again.
public struct RetryPolicy: Sendable {
    /// The most retries of one job; nil: no cap (``maxWait`` bounds them).
    public var retries: Int?
    /// Seconds a job may spend waiting between attempts, in all; nil: no cap.
    public var maxWait: Double?
    /// The longest `Retry-After` honoured, in seconds; a longer one fails at once. nil: any.
    public var maxRetryAfter: Double?
    /// The delay when the server names none.
    public var backoff: Backoff

    /// A policy; without limits every transient failure is retried.
    public init(retries: Int? = nil, maxWait: Double? = nil, maxRetryAfter: Double? = nil, backoff: Backoff) {
        self.retries = retries
        self.maxWait = maxWait
        self.maxRetryAfter = maxRetryAfter
        self.backoff = backoff
    }

    /// Seconds to wait before the next attempt of a job that has made
    /// `attempts` and waited `waited` seconds, when the server asked for
    /// `retryAfter` seconds (0: it did not); nil: do not retry.
    public func delay(attempts: Int, waited: Double, retryAfter: Int64) -> Double? {
        if let retries, attempts > retries { return nil }
        let delay: Double
        if retryAfter > 0 {
            if let maxRetryAfter, Double(retryAfter) > maxRetryAfter { return nil }
            delay = Double(retryAfter)
        } else {
            delay = backoff.delay(attempt: attempts)
        }
        if let maxWait, waited + delay > maxWait { return nil }
        return delay
    }
}

/// How many transfers a ``RequestEngine`` runs at once, and how it retries.
public struct RequestLimits: Sendable {
    /// Transfers at once.
    public var concurrency: Int
    /// Transfers at once to one host.
    public var perHost: Int
    /// When to try again.
    public var retry: RetryPolicy
    /// Seconds a job may take from its first attempt to its result, retries
    /// included; nil: no limit (each attempt still has its own timeouts).
    public var maxTime: Double?

    /// Limits of `concurrency` transfers, `perHost` to one host (default: no
    /// tighter than `concurrency`), retried by `retry`, each job done within
    /// `maxTime` seconds of its first attempt.
    public init(concurrency: Int, perHost: Int? = nil, retry: RetryPolicy, maxTime: Double? = nil) {
        self.concurrency = max(1, concurrency)
        self.perHost = max(1, min(perHost ?? concurrency, concurrency))
        self.retry = retry
        self.maxTime = maxTime.flatMap { $0 > 0 ? $0 : nil }
    }
}

/// What differs between the network stages: how a record becomes a job, how
/// a job's transfer is set up, and what a finished transfer means.
///
/// Every method is called on the engine's thread. The client hands results on
/// through the ``OutputSequencer`` it gave the engine, by the job's sequence.
public protocol RequestClient: AnyObject {
    /// The client's job.
    associatedtype Job: RequestJob
    /// What the client keeps for one attempt (its write target, its buffers).
    associatedtype Transfer

    /// Takes record `sequence`: hands its result on now (and returns nil), or
    /// returns the job that needs a request.
    func admit(_ sequence: Int, _ input: InputRecord) -> Job?
    /// Whether `job` may start now (`now`: monotonic nanoseconds).
    func gate(_ job: Job, now: UInt64) -> RequestGate
    /// Sets up the attempt on `easy` (reset, sharing connections through
    /// `share`); a failure ends the job.
    func start(_ job: Job, on easy: CurlEasy, share: UnsafeMutableRawPointer?) -> Result<Transfer, FetchFailure>
    /// What the finished attempt amounts to (`result`: libcurl's code).
    func complete(_ job: Job, _ transfer: Transfer, result: CURLcode, easy: CurlEasy) -> RequestCompletion
    /// Removes what an attempt that will not finish left behind (a stop, a retry).
    func discard(_ transfer: Transfer)
    /// Hands on the error record for `job`, which failed for good.
    func fail(_ job: Job, _ failure: FetchFailure)
    /// Hands on the records of jobs that will not run (a stop): `failure` is
    /// ``FetchFailure/interrupted`` or the failure of ``RequestCompletion/stop(_:)``.
    func interrupt(_ jobs: [Job], with failure: FetchFailure)
    /// Jobs finished elsewhere since the last call (``RequestCompletion/deferred``),
    /// their results handed on.
    func takeDeferred() -> Int
    /// Jobs finished elsewhere and not yet taken back.
    var deferredCount: Int { get }
    /// Finishes, at a stop, every deferred job that can be finished now.
    func finishDeferred()
    /// Counts lines that were not records (each already handed on as a `bad_json` record).
    func noteBadLines(_ count: Int)
    /// A retry was scheduled.
    func noteRetry()
    /// The progress line (a terminal's stderr), with `active` transfers running.
    func progressLine(active: Int) -> String
    /// What `job` asks for, for `--verbose` (its URL with every secret masked).
    func describe(_ job: Job) -> String
}

extension RequestClient {
    /// No work is finished elsewhere: a client whose ``RequestClient/complete(_:_:result:easy:)``
    /// never answers ``RequestCompletion/deferred`` needs none of these.
    public func takeDeferred() -> Int { 0 }
    public var deferredCount: Int { 0 }
    public func finishDeferred() {}
    /// Nothing to count.
    public func noteBadLines(_ count: Int) {}
    public func noteRetry() {}
}

extension RequestClient where Transfer == MemoryTransfer {
    /// A transfer into memory leaves nothing behind to remove.
    public func discard(_ transfer: MemoryTransfer) {}
}

/// Runs the requests of a network stage: admission within the output window,
/// the curl-multi loop, retries with jittered backoff and `Retry-After`, a stop
/// into `interrupted` records, and the progress line. One per run.
public final class RequestEngine<Client: RequestClient> {
    private struct Running {
        let job: Client.Job
        let transfer: Client.Transfer
        let easy: CurlEasy
    }

    private let stage: Stage
    private let sequencer: OutputSequencer
    private let client: Client
    private let limits: RequestLimits
    private let multi: CurlMulti
    private var inputDone = false
    private var waiting: [Client.Job] = []  // admitted, not started (FIFO)
    private var retrying: [Client.Job] = []
    private var active: [UnsafeMutableRawPointer: Running] = [:]
    private var activePerHost: [String: Int] = [:]
    private var idleHandles: [CurlEasy] = []
    private var stopFailure: FetchFailure?
    private var lastProgress: UInt64 = 0

    /// An engine for `stage`, handing results on through `sequencer`.
    public init(stage: Stage, sequencer: OutputSequencer, client: Client, limits: RequestLimits) throws(CurlError) {
        guard let multi = CurlMulti(maxConnections: limits.concurrency, maxPerHost: limits.perHost) else {
            throw CurlError(code: CURLE_FAILED_INIT)
        }
        self.stage = stage
        self.sequencer = sequencer
        self.client = client
        self.limits = limits
        self.multi = multi
        stage.input.onPush = { [multi] in multi.wakeup() }
        // On a stop the reader closes the queue itself, once what it holds is
        // in it (a stage that drains its input on a signal: once the lines
        // waiting on stdin are in it); ``shutDown()`` reads to that close.
        // Only when nobody reads stdout any more is input refused at once.
        stage.onStop = { [multi, input = stage.input, weak stage] in
            if stage?.stopReason == .downstreamClosed { input.close() }
            multi.wakeup()
        }
    }

    /// Wakes the loop from another thread (work finished elsewhere).
    public var wakeup: @Sendable () -> Void { { [multi] in multi.wakeup() } }

    /// Transfers in flight.
    public var activeCount: Int { active.count }

    /// Runs until the input ends and every record is written, or a stop.
    public func run() {
        while true {
            if stage.stopReason != nil || stopFailure != nil {
                shutDown()
                break
            }
            admit(stage.input.tryPopBatch(max: room))
            let pause = startTransfers()
            sequencer.deliver()
            let idle = active.isEmpty && waiting.isEmpty && retrying.isEmpty && client.deferredCount == 0
            if inputDone && idle && !sequencer.hasPending { break }
            if idle {
                // Nothing for curl to do: wait for output room or for input.
                if sequencer.hasPending {
                    sequencer.deliverOneWaiting()
                    continue
                }
                if !inputDone && room > 0 {
                    // Waits in slices: a reader downstream that is gone (the
                    // round ended) stops the stage though no input comes.
                    let batch = stage.input.popBatch(max: room, until: monotonicSeconds() + 0.2)
                    if batch.isEmpty {
                        if stage.input.isFinished { inputDone = true } else { stage.noticeClosedOutput() }
                        continue
                    }
                    admit(batch)
                    continue
                }
            }
            // Collect what finished before waiting: a file:// transfer, or a
            // fast one, completes inside perform() and wakes no poll.
            multi.perform()
            var finished = multi.finished()
            if finished.isEmpty {
                multi.poll(milliseconds: pollTimeout(pause: pause))
                multi.perform()
                finished = multi.finished()
            }
            for (handle, result) in finished { complete(handle, result) }
            if client.deferredCount > 0 { _ = client.takeDeferred() }
            enforceDeadlines()
            // The reader downstream is gone (the player's round ended): stop
            // now, not when a stalled transfer finally gives a record to write.
            if !active.isEmpty || !retrying.isEmpty { stage.noticeClosedOutput() }
            showProgress()
        }
        stage.diagnostics.clearProgress()
    }

    // MARK: Admission

    /// How many more records may be admitted now.
    private var room: Int { inputDone ? 0 : sequencer.room }

    private func admit(_ batch: [InputItem]) {
        if batch.isEmpty && stage.input.isFinished { inputDone = true }
        let bad = sequencer.admit(batch, stage: stage) { sequence, input in
            if let job = client.admit(sequence, input) { waiting.append(job) }
        }
        if bad > 0 { client.noteBadLines(bad) }
    }

    // MARK: Transfers

    /// Starts what may start now; returns seconds until the soonest paused
    /// job may start (0: none is paused).
    private func startTransfers() -> Double {
        guard !waiting.isEmpty || !retrying.isEmpty else { return 0 }
        let now = monotonicNanoseconds()
        if !retrying.isEmpty {
            let due = retrying.filter { $0.notBefore <= now }
            retrying.removeAll { $0.notBefore <= now }
            waiting.insert(contentsOf: due, at: 0)
        }
        var index = 0
        var soonest: Double?
        while active.count < limits.concurrency && index < waiting.count {
            let job = waiting[index]
            if activePerHost[job.host, default: 0] >= limits.perHost {
                index += 1
                continue
            }
            switch client.gate(job, now: now) {
            case .later:
                index += 1
            case .settled:
                waiting.remove(at: index)
            case .pause(let seconds):
                soonest = min(soonest ?? seconds, seconds)
                index += 1
            case .start:
                waiting.remove(at: index)
                start(job)
            }
        }
        return soonest ?? 0
    }

    private func start(_ job: Client.Job) {
        job.attempts += 1
        if job.deadline == nil, let maxTime = limits.maxTime {
            job.deadline = monotonicNanoseconds() + Self.nanoseconds(maxTime)
        }
        guard let easy = idleHandles.popLast() ?? CurlEasy() else {
            return client.fail(job, FetchFailure("transfer", "libcurl could not make a handle"))
        }
        easy.reset()
        let transfer: Client.Transfer
        switch client.start(job, on: easy, share: multi.share) {
        case .success(let made): transfer = made
        case .failure(let failure):
            // Not reused: a handle that refused an option may refuse the next too.
            return client.fail(job, failure)
        }
        guard multi.add(easy) else {
            client.discard(transfer)
            idleHandles.append(easy)
            return client.fail(job, FetchFailure("transfer", "libcurl could not start the transfer"))
        }
        active[easy.handle] = Running(job: job, transfer: transfer, easy: easy)
        activePerHost[job.host, default: 0] += 1
        stage.diagnostics.trace("GET \(client.describe(job))\(job.attempts > 1 ? " (attempt \(job.attempts))" : "")")
    }

    private func complete(_ handle: UnsafeMutableRawPointer, _ result: CURLcode) {
        guard let running = active.removeValue(forKey: handle) else { return }
        let job = running.job
        multi.remove(running.easy)
        // Only a handle whose transfer went well is reused: one that libcurl
        // stopped (a redirect to a refused scheme) keeps state that makes it
        // refuse the options of every later transfer (issue 16 #1).
        if result == CURLE_OK { idleHandles.append(running.easy) }
        release(host: job.host)
        if stage.diagnostics.verbose {
            let status = running.easy.responseCode
            let answer = result == CURLE_OK ? "HTTP \(status)" : "libcurl \(CurlError(code: result))"
            let seconds = Double(running.easy.info(offset: CURLINFO_TOTAL_TIME_T)) / 1e6
            stage.diagnostics.trace("\(answer) in \(String(cFormat: "%.3f", seconds))s: \(client.describe(job))")
        }
        switch client.complete(job, running.transfer, result: result, easy: running.easy) {
        case .done, .deferred:
            break
        case .stop(let failure):
            stopFailure = failure
        case .failed(let failure):
            client.discard(running.transfer)
            let retryAfter = running.easy.info(offset: CURLINFO_RETRY_AFTER)
            if failure.transient, let delay = limits.retry.delay(attempts: job.attempts, waited: job.waited, retryAfter: retryAfter),
               job.deadline.map({ monotonicNanoseconds() + Self.nanoseconds(delay) < $0 }) ?? true {
                client.noteRetry()
                stage.diagnostics.trace("\(failure.code): retry in \(String(cFormat: "%.2f", delay))s: \(client.describe(job))")
                job.waited += delay
                job.notBefore = monotonicNanoseconds() + Self.nanoseconds(delay)
                retrying.append(job)
            } else {
                stage.diagnostics.trace("\(failure.code): no retry: \(client.describe(job))")
                client.fail(job, failure)
            }
        }
    }

    /// `seconds` as nanoseconds, at most a year's (a server's Retry-After or
    /// an option can name any number).
    private static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(min(max(0, seconds), 365 * 86_400) * 1e9)
    }

    /// One transfer to `host` fewer; a host with none is forgotten (the map
    /// stays as small as the transfers in flight).
    private func release(host: String) {
        let left = activePerHost[host, default: 1] - 1
        activePerHost[host] = left > 0 ? left : nil
    }

    /// Ends every job in flight whose deadline has passed: its error record
    /// goes out now, so the records after it in the order are held no longer.
    private func enforceDeadlines() {
        guard limits.maxTime != nil, !active.isEmpty else { return }
        let now = monotonicNanoseconds()
        for (handle, running) in active {
            guard let deadline = running.job.deadline, deadline <= now else { continue }
            active.removeValue(forKey: handle)
            multi.remove(running.easy)  // stopped mid-transfer: not reused
            release(host: running.job.host)
            client.discard(running.transfer)
            stage.diagnostics.trace("--max-time passed: \(client.describe(running.job))")
            client.fail(running.job, deadlineFailure(running.job))
        }
    }

    private func deadlineFailure(_ job: Client.Job) -> FetchFailure {
        let seconds = limits.maxTime.map { $0.rounded() == $0 ? "\(Int($0))" : "\($0)" } ?? "?"
        let tries = job.attempts > 1 ? ", \(job.attempts) attempts" : ""
        return FetchFailure("timeout", "not done within --max-time \(seconds)s (retries included\(tries))")
    }

    private func pollTimeout(pause: Double) -> Int {
        var timeout = stage.diagnostics.isTerminal || !active.isEmpty ? 100 : 1000
        if sequencer.hasPending { timeout = 5 }
        if pause > 0 { timeout = min(timeout, Int(min(pause, 3600) * 1000) + 1) }
        if limits.maxTime != nil, let soonest = active.values.compactMap(\.job.deadline).min() {
            let now = monotonicNanoseconds()
            timeout = min(timeout, soonest > now ? Int((soonest - now) / 1_000_000) + 1 : 0)
        }
        if let soonest = retrying.map(\.notBefore).min() {
            let now = monotonicNanoseconds()
            timeout = min(timeout, soonest > now ? Int((soonest - now) / 1_000_000) + 1 : 0)
        }
        return timeout
    }

    // MARK: Stopping

    /// Every record already read gets its line: in-flight, waiting and
    /// retrying jobs, and the records still queued, are interrupted. That
    /// includes the batch the reader holds as it sees the stop (parsed, maybe
    /// blocked on a full queue): it is taken before the queue closes, unless
    /// nobody reads stdout any more.
    private func shutDown() {
        client.finishDeferred()
        // The reader stops at its next look (within 200 ms) and closes the
        // queue itself; a stop of the engine's own (a refused key) stops it
        // as a signal does, so its lines get their records too.
        let waitsForReader = stage.stopReason != .downstreamClosed
        if waitsForReader { stage.stopReading() } else { stage.input.close() }
        var jobs: [Client.Job] = []
        for (_, running) in active {
            multi.remove(running.easy)
            client.discard(running.transfer)
            jobs.append(running.job)
        }
        active.removeAll()
        jobs += retrying
        retrying.removeAll()
        if waitsForReader {
            // Every line the reader takes from stdin until it closes the queue
            // (after a signal, what upstream still writes when draining). It
            // does within 200 ms, or the drain's 2 s; the bound only guards a
            // reader stuck in read(2) (another process took the data it was told of).
            let deadline = monotonicSeconds() + Stage.drainLimit + 1
            while case let batch = stage.input.popBatch(until: deadline), !batch.isEmpty { admit(batch) }
            stage.input.close()
            while case let batch = stage.input.tryPopBatch(), !batch.isEmpty { admit(batch) }
        } else {
            while case let batch = stage.input.tryPopBatch(), !batch.isEmpty { admit(batch) }
        }
        jobs += waiting
        waiting.removeAll()
        client.interrupt(jobs.sorted { $0.sequence < $1.sequence }, with: stopFailure ?? .interrupted)
        guard stage.stopReason != .downstreamClosed else { return sequencer.dropPending() }
        sequencer.flush()
    }

    // MARK: Progress

    private func showProgress() {
        guard stage.diagnostics.isTerminal && !stage.diagnostics.quiet else { return }
        let now = monotonicNanoseconds()
        guard now - lastProgress > 100_000_000 else { return }
        lastProgress = now
        stage.diagnostics.progress(client.progressLine(active: active.count))
    }
}
