import CCurl
import Foundation
import SposureKit

//  fetch-images, the concurrent image fetcher:
//
//  stdin ─reader─▶ [input queue] ─▶ engine thread ───────────────▶ [output queue] ─writer─▶ stdout
//                                    │ admits ≤ window records     ▲
//                                    │ cache hit / pass-through ───┤ reorder buffer (--ordered)
//                                    ▼                             │
//                              waiting jobs ─▶ curl multi (≤ --concurrency, ≤ --per-host)
//                                    ▲              │ done: rename into cache, or retry/error
//                                    └── retries ◀──┘ (jittered backoff)
//
//  One thread (the caller's) drives libcurl: it never blocks while transfers
//  are in flight, so curl's timers stay honest; a push into the input queue or
//  a stop request wakes its curl_multi_poll.

/// The engine of `fetch-images`: reads records from a ``Stage``, fetches GIFs
/// into an ``ImageCache`` with libcurl multi, and writes one record for each.
public final class ImageFetcher {
    private let stage: Stage
    private let cache: ImageCache
    private let configuration: FetchConfiguration
    private let multi: CurlMulti

    private let sequencer: OutputSequencer
    private var inputDone = false

    private var waiting: [FetchJob] = []  // admitted, not started (FIFO)
    private var retrying: [FetchJob] = []
    private var active: [UnsafeMutableRawPointer: ImageTransfer] = [:]
    /// Transfers done and written, their digests being finished on the hash thread.
    private var hashing: [ObjectIdentifier: ImageTransfer] = [:]
    private var activeByKey: [String: FetchJob] = [:]
    private var activePerHost: [String: Int] = [:]
    private var idleHandles: [CurlEasy] = []
    private var refreshed = Set<String>()

    private let statistics = FetchStatistics()
    /// Made on first use, after the stage has blocked the signals its trap
    /// thread takes: a thread started earlier would let SIGINT kill the process.
    private lazy var hasher = HashWorker { [multi] in multi.wakeup() }
    private var lastProgress: UInt64 = 0

    /// An engine for `stage`, storing into `cache`.
    public init(stage: Stage, cache: ImageCache, configuration: FetchConfiguration) throws(CurlError) {
        guard let multi = CurlMulti(maxConnections: configuration.concurrency, maxPerHost: configuration.perHost) else {
            throw CurlError(code: CURLE_FAILED_INIT)
        }
        self.stage = stage
        self.cache = cache
        self.configuration = configuration
        self.multi = multi
        sequencer = OutputSequencer(output: stage.output, ordered: configuration.ordered,
                                    window: max(configuration.window, configuration.concurrency * 2))
        stage.input.onPush = { [multi] in multi.wakeup() }
        stage.onStop = { [multi, input = stage.input] in
            input.close()
            multi.wakeup()
        }
    }

    /// Runs until the input ends (or a stop), writing every record; returns
    /// true when some records became error records.
    public func run() -> Bool {
        while true {
            if stage.stopReason != nil {
                shutDown()
                break
            }
            admit(stage.input.tryPopBatch(max: room))
            startTransfers()
            sequencer.deliver()
            if inputDone && outstanding == 0 && !sequencer.hasPending { break }
            if active.isEmpty && waiting.isEmpty && retrying.isEmpty && hashing.isEmpty {
                // Nothing for curl to do: wait for output room or for input.
                if sequencer.hasPending {
                    sequencer.deliverOneWaiting()
                    continue
                }
                if !inputDone && room > 0 {
                    let batch = stage.input.popBatch(max: room)
                    if batch.isEmpty { inputDone = true }
                    admit(batch)
                    continue
                }
            }
            // Collect what finished before waiting: a file:// transfer, or a
            // fast one, completes inside perform() and wakes no poll.
            multi.perform()
            var finished = multi.finished()
            if finished.isEmpty {
                multi.poll(milliseconds: pollTimeout())
                multi.perform()
                finished = multi.finished()
            }
            for (easy, result) in finished { complete(easy, result) }
            if !hashing.isEmpty { for stream in hasher.takeFinished() { store(stream) } }
            showProgress(force: false)
        }
        stage.diagnostics.clearProgress()
        if stage.stopReason == nil && statistics.total > 0 {
            stage.diagnostics.note(statistics.summary())
        }
        return statistics.failed > 0
    }

    // MARK: Admission

    /// How many more records may be admitted now.
    private var room: Int { inputDone ? 0 : sequencer.room }

    private var outstanding: Int { waiting.count + retrying.count + active.count + hashing.count + activeByKey.count }

    private func admit(_ batch: [InputItem]) {
        if batch.isEmpty && stage.input.isFinished { inputDone = true }
        statistics.failed += sequencer.admit(batch, stage: stage) { sequence, input in
            if input.record.kind == "gif" {
                admitGIF(sequence, input)
            } else {
                sequencer.emit(sequence, input.raw)
            }
        }
    }

    private func admitGIF(_ sequence: Int, _ input: InputRecord) {
        let started = monotonicNanoseconds()
        statistics.total += 1
        guard let url = input.record.string("url") else {
            return fail(sequence, input, FetchFailure("bad_record", "a gif record needs a string url"), started: started)
        }
        guard let parts = URLParts(url) else {
            return fail(sequence, input, FetchFailure("bad_url", "not a URL with a scheme: \(redactedURL(url))"), started: started)
        }
        let allowed = parts.scheme == "http" || parts.scheme == "https" || (parts.scheme == "file" && configuration.allowFile)
        guard allowed else {
            let hint = parts.scheme == "file" ? " (--allow-file allows file:// URLs)" : " (only http and https)"
            return fail(sequence, input, FetchFailure("not_allowed", "\(parts.scheme):// URLs are not fetched\(hint)"), started: started)
        }
        let key = input.record.string("cache_key") ?? url
        let job = FetchJob(sequence: sequence, input: input, url: url, key: key, host: parts.host,
                           path: cache.path(forKey: key), started: started)
        if let leader = activeByKey[key] {
            leader.followers.append(job)
            return
        }
        let fresh = configuration.refresh && !refreshed.contains(key)
        if !fresh, let entry = cache.lookup(path: job.path) {
            statistics.cached += 1
            return succeed(job, entry, cached: true, status: nil)
        }
        activeByKey[key] = job
        waiting.append(job)
    }

    // MARK: Transfers

    private func startTransfers() {
        guard !waiting.isEmpty || !retrying.isEmpty else { return }
        let now = monotonicNanoseconds()
        if !retrying.isEmpty {
            let due = retrying.filter { $0.notBefore <= now }
            retrying.removeAll { $0.notBefore <= now }
            waiting.insert(contentsOf: due, at: 0)
        }
        var index = 0
        while active.count < configuration.concurrency && index < waiting.count {
            let job = waiting[index]
            if activePerHost[job.host, default: 0] >= configuration.perHost {
                index += 1
                continue
            }
            waiting.remove(at: index)
            start(job)
        }
    }

    private func start(_ job: FetchJob) {
        job.attempts += 1
        let easy = idleHandles.popLast() ?? CurlEasy()
        guard let easy else {
            return finish(job, .failure(FetchFailure("transfer", "libcurl could not make a handle")))
        }
        easy.reset()
        let transfer = ImageTransfer(job: job, easy: easy, temporaryPath: cache.temporaryPath(), maxBytes: configuration.maxBytes, hashing: hasher)
        do {
            try transfer.configure(configuration, share: multi.share)
        } catch {
            idleHandles.append(easy)
            return finish(job, .failure(FetchFailure("transfer", "libcurl refused an option: \(error)")))
        }
        guard multi.add(easy) else {
            idleHandles.append(easy)
            return finish(job, .failure(FetchFailure("transfer", "libcurl could not start the transfer")))
        }
        active[easy.handle] = transfer
        activePerHost[job.host, default: 0] += 1
    }

    private func complete(_ handle: UnsafeMutableRawPointer, _ result: CURLcode) {
        guard let transfer = active.removeValue(forKey: handle) else { return }
        let job = transfer.job
        multi.remove(transfer.easy)
        idleHandles.append(transfer.easy)
        activePerHost[job.host, default: 1] -= 1
        statistics.bytes += transfer.bytes
        switch transfer.outcome(result) {
        case .success(.ready(let entry)):
            store(transfer, entry)
        case .success(.onHashThread):
            // The digest is finished on the hash thread; ``store(_:)`` takes it from there.
            hashing[ObjectIdentifier(transfer.stream)] = transfer
        case .failure(let failure):
            transfer.discard()
            if failure.transient && job.attempts <= configuration.retries, let delay = retryDelay(failure, transfer, job) {
                statistics.retries += 1
                job.notBefore = monotonicNanoseconds() + UInt64(delay * 1e9)
                retrying.append(job)
            } else {
                finish(job, .failure(failure))
            }
        }
    }

    /// A transfer whose digest the hash thread has finished.
    private func store(_ stream: HashStream) {
        guard let transfer = hashing.removeValue(forKey: ObjectIdentifier(stream)) else { return }
        store(transfer, transfer.hashed())
    }

    /// A transfer complete, written and hashed: into the cache, and its record out.
    private func store(_ transfer: ImageTransfer, _ entry: ImageCache.Entry) {
        let job = transfer.job
        guard transfer.closeFile() else {
            transfer.discard()
            return finish(job, .failure(FetchFailure("cache_write", "cannot write \(transfer.temporaryPath): \(String(cString: strerror(errno)))")))
        }
        do {
            try cache.commit(temporary: transfer.temporaryPath, to: job.path)
            transfer.committed = true
        } catch {
            transfer.discard()
            return finish(job, .failure(FetchFailure("cache_write", error.description)))
        }
        if configuration.refresh { rememberRefreshed(job.key) }
        finish(job, .success((entry, transfer.status)))
    }

    /// Seconds to wait before retrying, or nil when the server asks for too long.
    private func retryDelay(_ failure: FetchFailure, _ transfer: ImageTransfer, _ job: FetchJob) -> Double? {
        let retryAfter = transfer.easy.info(offset: CURLINFO_RETRY_AFTER)
        if retryAfter > 0 {
            return Double(retryAfter) <= configuration.maxRetryAfter ? Double(retryAfter) : nil
        }
        return configuration.backoff.delay(attempt: job.attempts)
    }

    private func rememberRefreshed(_ key: String) {
        if refreshed.count >= 100_000 { refreshed.removeAll() }  // bounded; a repeat after that is fetched again
        refreshed.insert(key)
    }

    // MARK: Results

    private func finish(_ job: FetchJob, _ result: Result<(ImageCache.Entry, Int?), FetchFailure>) {
        activeByKey.removeValue(forKey: job.key)
        switch result {
        case .success(let (entry, status)):
            succeed(job, entry, cached: false, status: status == 0 ? nil : status)
            for follower in job.followers { succeed(follower, entry, cached: true, status: nil) }
        case .failure(let failure):
            fail(job.sequence, job.input, failure, started: job.started, attempts: job.attempts)
            for follower in job.followers {
                fail(follower.sequence, follower.input, failure, started: follower.started, attempts: 0)
            }
        }
    }

    private func succeed(_ job: FetchJob, _ entry: ImageCache.Entry, cached: Bool, status: Int?) {
        let record = job.input.record
        record.set("kind", "image")
        record.set("path", job.path)
        record.set("bytes", entry.bytes)
        record.set("sha256", entry.sha256)
        record.set("cached", cached)
        record.set("http_status", status)
        record.set("ms", elapsedMilliseconds(since: job.started))
        statistics.done += 1
        sequencer.emit(job.sequence, record.serialized())
    }

    private func fail(_ sequence: Int, _ input: InputRecord, _ failure: FetchFailure, started: UInt64, attempts: Int = 0) {
        statistics.failed += 1
        statistics.done += 1
        if failure != .interrupted {
            let retried = attempts > 1 ? " (after \(attempts) attempts)" : ""
            stage.diagnostics.warning("stdin:\(input.line): \(failure.code): \(failure.message)\(retried)")
        }
        let record = stage.makeError(input.record, code: failure.code, message: failure.message)
        if attempts > 1 { record.set("attempts", attempts) }
        record.set("ms", elapsedMilliseconds(since: started))
        sequencer.emit(sequence, record.serialized())
    }

    private func pollTimeout() -> Int {
        var timeout = stage.diagnostics.isTerminal ? 100 : 1000
        if sequencer.hasPending { timeout = 5 }
        if let soonest = retrying.map(\.notBefore).min() {
            let now = monotonicNanoseconds()
            timeout = min(timeout, soonest > now ? Int((soonest - now) / 1_000_000) + 1 : 0)
        }
        return timeout
    }

    // MARK: Stopping

    /// Every record already read gets its line: in-flight and queued fetches
    /// become `interrupted`, their temporary files are removed.
    private func shutDown() {
        // Transfers already complete are stored: their digests are moments away.
        for transfer in Array(hashing.values).sorted(by: { $0.job.sequence < $1.job.sequence }) { store(transfer.stream) }
        for (_, transfer) in active {
            multi.remove(transfer.easy)
            transfer.discard()
            waiting.append(transfer.job)
        }
        active.removeAll()
        waiting.append(contentsOf: retrying)
        retrying.removeAll()
        while true {
            let batch = stage.input.tryPopBatch()
            if batch.isEmpty { break }
            admit(batch)
        }
        let stopped = waiting.reduce(0) { $0 + 1 + $1.followers.count }
        for job in waiting.sorted(by: { $0.sequence < $1.sequence }) {
            finish(job, .failure(.interrupted))
        }
        waiting.removeAll()
        if stopped > 0 && stage.stopReason != .downstreamClosed {
            stage.diagnostics.warning("stopped: \(stopped) records not fetched, written as \"interrupted\" error records")
        }
        guard stage.stopReason != .downstreamClosed else { return sequencer.dropPending() }
        sequencer.flush()
    }

    // MARK: Progress

    private func showProgress(force: Bool) {
        guard stage.diagnostics.isTerminal && !stage.diagnostics.quiet else { return }
        let now = monotonicNanoseconds()
        guard force || now - lastProgress > 100_000_000 else { return }
        lastProgress = now
        let input = stage.inputProgress
        stage.diagnostics.progress(statistics.line(total: input.ended ? statistics.total : nil, active: active.count))
    }
}

/// Counters for the progress line.
final class FetchStatistics {
    var total = 0
    var done = 0
    var failed = 0
    var cached = 0
    var retries = 0
    var bytes = 0
    let started = monotonicNanoseconds()

    /// One line for the end of a run, on a terminal.
    func summary() -> String {
        let seconds = Double(monotonicNanoseconds() - started) / 1e9
        var text = "\(done) images, \(ByteCount.format(bytes)) fetched in \(String(format: "%.1f", seconds))s"
        if cached > 0 { text += ", \(cached) from the cache" }
        if failed > 0 { text += ", \(failed) failed" }
        return text
    }

    func line(total known: Int?, active: Int) -> String {
        let seconds = max(0.001, Double(monotonicNanoseconds() - started) / 1e9)
        let count = known.map { "\(done)/\($0)" } ?? "\(done)/\(total)+"
        var parts = ["\(count) images", ByteCount.format(bytes), "\(ByteCount.format(Int(Double(bytes) / seconds)))/s", "\(active) active"]
        if cached > 0 { parts.append("\(cached) cached") }
        if retries > 0 { parts.append("\(retries) retries") }
        if failed > 0 { parts.append("\(failed) failed") }
        return parts.joined(separator: " · ")
    }
}
