import CCurl
import RecordKit
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

/// Runs the requests of a network stage: admission within the output window,
/// the curl-multi loop, retries with jittered backoff and `Retry-After`, a stop
/// into `interrupted` records, and the progress line. One per run.
public final class RequestEngine<Client: RequestClient> {
    struct Running {
        let job: Client.Job
        let transfer: Client.Transfer
        let handle: RequestHandle
        var easy: CurlEasy { handle.easy }
    }

    let stage: Stage
    let sequencer: OutputSequencer
    let client: Client
    let limits: RequestLimits
    let multi: CurlMulti
    var inputDone = false
    var waiting: [Client.Job] = []  // admitted, not started (FIFO)
    var retrying: [Client.Job] = []
    var active: [UnsafeMutableRawPointer: Running] = [:]
    var activePerHost: [String: Int] = [:]
    var idleHandles: [RequestHandle] = []
    var stopFailure: FetchFailure?
    var lastProgress: UInt64 = 0

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
            driveTransfers(pause: pause)
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
    var room: Int { inputDone ? 0 : sequencer.room }

    func admit(_ batch: [InputItem]) {
        if batch.isEmpty && stage.input.isFinished { inputDone = true }
        let bad = sequencer.admit(batch, badLine: stage.badLineRecord) { sequence, input in
            if let job = client.admit(sequence, input) { waiting.append(job) }
        }
        if bad > 0 { client.noteBadLines(bad) }
    }

    // MARK: Transfers

    /// Lets curl work until something finishes or the poll times out, and
    /// completes what finished. What finished before waiting is collected
    /// first: a file:// transfer, or a fast one, completes inside perform()
    /// and wakes no poll.
    func driveTransfers(pause: Double) {
        multi.perform()
        var finished = multi.finished()
        if finished.isEmpty {
            multi.poll(milliseconds: pollTimeout(pause: pause))
            multi.perform()
            finished = multi.finished()
        }
        for (handle, result) in finished { complete(handle, result) }
    }

    /// Takes every transfer in flight off curl (their handles not reused),
    /// discarding what they left; returns their jobs.
    func takeActive() -> [Client.Job] {
        var jobs: [Client.Job] = []
        for (_, running) in active {
            multi.remove(running.easy)
            client.discard(running.transfer)
            jobs.append(running.job)
        }
        active.removeAll()
        activePerHost.removeAll()
        return jobs
    }

    /// Starts what may start now; returns seconds until the soonest paused
    /// job may start (0: none is paused).
    func startTransfers() -> Double {
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

    func start(_ job: Client.Job) {
        job.attempts += 1
        if job.deadline == nil, let maxTime = limits.maxTime {
            job.deadline = monotonicNanoseconds() + Self.nanoseconds(maxTime)
        }
        guard let handle = idleHandles.popLast() ?? CurlEasy().map({ RequestHandle(easy: $0, share: multi.share) }) else {
            return client.fail(job, FetchFailure("transfer", "libcurl could not make a handle"))
        }
        let easy = handle.easy
        easy.reset()
        let transfer: Client.Transfer
        switch client.start(job, on: handle) {
        case .success(let made): transfer = made
        case .failure(let failure):
            // Not reused: a handle that refused an option may refuse the next too.
            return client.fail(job, failure)
        }
        guard multi.add(easy) else {
            client.discard(transfer)
            idleHandles.append(handle)
            return client.fail(job, FetchFailure("transfer", "libcurl could not start the transfer"))
        }
        active[easy.handle] = Running(job: job, transfer: transfer, handle: handle)
        activePerHost[job.host, default: 0] += 1
        stage.diagnostics.trace("GET \(client.describe(job))\(job.attempts > 1 ? " (attempt \(job.attempts))" : "")")
    }

    func complete(_ handle: UnsafeMutableRawPointer, _ result: CURLcode) {
        guard let running = active.removeValue(forKey: handle) else { return }
        let job = running.job
        multi.remove(running.easy)
        // Only a handle whose transfer went well is reused: one that libcurl
        // stopped (a redirect to a refused scheme) keeps state that makes it
        // refuse the options of every later transfer (issue 16 #1).
        if result == CURLE_OK { idleHandles.append(running.handle) }
        release(host: job.host)
        if stage.diagnostics.verbose {
            let status = running.easy.responseCode
            let answer = result == CURLE_OK ? "HTTP \(status)" : "libcurl \(CurlError(code: result))"
            let seconds = Double(running.easy.info(offset: CURLINFO_TOTAL_TIME_T)) / 1e6
            stage.diagnostics.trace("\(answer) in \(String(cFormat: "%.3f", seconds))s: \(client.describe(job))")
        }
        switch client.complete(job, running.transfer, result: TransferResult(result), handle: running.handle) {
        case .done, .deferred:
            break
        case .stop(let failure):
            stopFailure = failure
        case .failed(let failure):
            client.discard(running.transfer)
            let retryAfter = running.easy.info(offset: CURLINFO_RETRY_AFTER)
            if failure.transient, let delay = limits.retry.delay(attempts: job.attempts, waited: job.waited, retryAfter: retryAfter),
               job.deadline.map({ monotonicNanoseconds() + Self.nanoseconds(delay) < $0 }) ?? true {
                client.noteRetry(job, failure, delay: delay)
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
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(min(max(0, seconds), 365 * 86_400) * 1e9)
    }

    /// One transfer to `host` fewer; a host with none is forgotten (the map
    /// stays as small as the transfers in flight).
    func release(host: String) {
        let left = activePerHost[host, default: 1] - 1
        activePerHost[host] = left > 0 ? left : nil
    }
}
