import CCurl
import SposureKit

// The engine's deadlines and poll timeout, its stop, its progress line, and
// the runs of a fixed list of jobs (a stage that reads no requests: plan's ping).
extension RequestEngine {
    /// Runs `jobs` alone, without the stage's input or output order: until
    /// each is settled (the client handed on or kept its result) or a stop,
    /// which interrupts what is left. Retries, gates, deadlines and the
    /// handles' connections are the same as for a stream of records; `plan`
    /// asks its pings this way.
    public func perform(_ jobs: [Client.Job]) {
        waiting.append(contentsOf: jobs)
        while true {
            if stage.stopReason != nil || stopFailure != nil {
                let left = takeActive() + retrying + waiting
                retrying.removeAll()
                waiting.removeAll()
                client.interrupt(left.sorted { $0.sequence < $1.sequence }, with: stopFailure ?? .interrupted)
                stopFailure = nil
                return
            }
            let pause = startTransfers()
            if active.isEmpty && waiting.isEmpty && retrying.isEmpty { return }
            driveTransfers(pause: pause)
            enforceDeadlines()
        }
    }

    /// Ends every job whose deadline has passed, in flight or waiting for
    /// its next attempt (a retry's backoff, a rate limit's pause): its error
    /// record goes out now, so the records after it in the order are held
    /// no longer, and no further attempt spends a call.
    func enforceDeadlines() {
        guard limits.maxTime != nil else { return }
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
        let late = { (job: Client.Job) in job.deadline.map { $0 <= now } ?? false }
        guard retrying.contains(where: late) || waiting.contains(where: late) else { return }
        let expired = (retrying.filter(late) + waiting.filter(late)).sorted { $0.sequence < $1.sequence }
        retrying.removeAll(where: late)
        waiting.removeAll(where: late)
        for job in expired {
            stage.diagnostics.trace("--max-time passed between attempts: \(client.describe(job))")
            client.fail(job, deadlineFailure(job))
        }
    }

    func deadlineFailure(_ job: Client.Job) -> FetchFailure {
        let seconds = limits.maxTime.map { $0.rounded() == $0 ? "\(Int($0))" : "\($0)" } ?? "?"
        let tries = job.attempts > 1 ? ", \(job.attempts) attempts" : ""
        return FetchFailure("timeout", "not done within --max-time \(seconds)s (retries included\(tries))")
    }

    func pollTimeout(pause: Double) -> Int {
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
    func shutDown() {
        client.finishDeferred()
        // The reader stops at its next look (within 200 ms) and closes the
        // queue itself; a stop of the engine's own (a refused key) stops it
        // as a signal does, so its lines get their records too.
        let waitsForReader = stage.stopReason != .downstreamClosed
        if waitsForReader { stage.stopReading() } else { stage.input.close() }
        var jobs = takeActive() + retrying
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

    func showProgress() {
        guard stage.diagnostics.isTerminal && !stage.diagnostics.quiet else { return }
        let now = monotonicNanoseconds()
        guard now - lastProgress > 100_000_000 else { return }
        lastProgress = now
        stage.diagnostics.progress(client.progressLine(active: active.count))
    }
}
