import CCurl
import FoundationEssentials
import Glibc
import RecordKit
import SposureKit
import NetKit

//  fetch-images, the concurrent image fetcher, on the ``RequestEngine``:
//
//  stdin ─reader─▶ [input queue] ─▶ engine thread ───────────────▶ [output queue] ─writer─▶ stdout
//                                    │ admit: cache hit / pass-through ─▲ OutputSequencer (--ordered)
//                                    ▼                                  │
//                              waiting jobs ─▶ curl multi (≤ --concurrency, ≤ --per-host)
//                                    ▲              │ ImageTransfer: signature, size cap, 64 KB blocks
//                                    └── retries ◀──┤   to a temporary file and the hash thread
//                                                   ▼
//                                  hash thread (SHA-256) ─▶ rename into the cache ─▶ record out
//
//  A record whose key is already in flight follows that fetch and gets its result.
//  Into a pipe the writer is paced (one record at a time, once the next stage
//  took the last) and admission stops --ahead records past what it took, so
//  the transfers run a bounded distance ahead of the player (issue 29 #10).
//  A record whose `mime` names another type than the body's first bytes is a
//  wrong_type error (the body stays cached; the record is not retried).
//  A failure that will not change (4xx, not a picture) is remembered in the cache
//  for a day: admit answers it from there (ImageCache+Failures.swift).

/// The engine of `fetch-images`: reads records from a ``Stage``, fetches GIFs
/// into an ``ImageCache`` with libcurl multi, and writes one record for each.
public final class ImageFetcher {
    private let client: ImageFetchClient

    /// An engine for `stage`, storing into `cache`.
    public init(stage: Stage, cache: ImageCache, configuration: FetchConfiguration) throws(CurlError) {
        client = try ImageFetchClient(stage: stage, cache: cache, configuration: configuration)
    }

    /// Runs until the input ends (or a stop), writing every record; returns
    /// true when some records became error records.
    public func run() -> Bool { client.run() }
}

/// What `fetch-images` makes of records and transfers, on the ``RequestEngine``.
final class ImageFetchClient {
    private let stage: Stage
    private let cache: ImageCache
    private let configuration: FetchConfiguration
    private let sequencer: OutputSequencer
    private var engine: RequestEngine<ImageFetchClient>!

    /// Transfers done and written, their digests being finished on the hash thread.
    private var hashing: [ObjectIdentifier: ImageTransfer] = [:]
    private var activeByKey: [String: FetchJob] = [:]
    private var refreshed = Set<String>()

    private let statistics = RequestStatistics()
    /// Made on first use, after the stage has blocked the signals its trap
    /// thread takes: a thread started earlier would let SIGINT kill the process.
    private lazy var hasher = HashWorker(wake: engine.wakeup)

    init(stage: Stage, cache: ImageCache, configuration: FetchConfiguration) throws(CurlError) {
        self.stage = stage
        self.cache = cache
        self.configuration = configuration
        sequencer = OutputSequencer(output: stage.output, ordered: configuration.ordered,
                                    window: max(configuration.window, configuration.concurrency * 2))
        if let ahead = configuration.ahead, stage.outputIsPipe {
            // Paced: a record waits here until the player takes it, and no
            // transfer starts more than `ahead` records past what it took.
            stage.pacesOutput = true
            sequencer.ahead = (ahead, { [weak stage] in stage?.linesTaken ?? 0 })
        }
        let retry = RetryPolicy(retries: configuration.retries, maxRetryAfter: configuration.maxRetryAfter,
                                backoff: configuration.backoff)
        engine = try RequestEngine(stage: stage, sequencer: sequencer, client: self,
                                   limits: RequestLimits(concurrency: configuration.concurrency,
                                                         perHost: configuration.perHost, retry: retry,
                                                         maxTime: configuration.maxTime))
        if sequencer.ahead != nil { stage.onLinesTaken = engine.wakeup }
    }

    func run() -> Bool {
        if let unwritable = cache.unwritable {
            stage.diagnostics.warning("cache: \(unwritable): serving cached images only; the others fail with cache_write")
        }
        engine.run()
        if stage.stopReason == nil && statistics.records > 0 {
            stage.diagnostics.note(statistics.fetchSummary())
        }
        engine = nil  // the engine holds this client
        return statistics.failed > 0
    }

    // MARK: Results

    private func finish(_ job: FetchJob, _ result: Result<(ImageCache.Entry, Int?), FetchFailure>) {
        activeByKey.removeValue(forKey: job.key)
        switch result {
        case .success(let (entry, status)):
            if configuration.retryFailed { cache.forgetFailure(forKey: job.key) }
            succeed(job, entry, cached: false, status: status == 0 ? nil : status)
            for follower in job.followers { succeed(follower, entry, cached: true, status: nil) }
        case .failure(let failure):
            if ImageCache.remembers(failure) && !job.url.lowercased().hasPrefix("file:") {
                cache.rememberFailure(failure, forKey: job.key, now: Int(time(nil)))
            }
            fail(job.sequence, job.input, failure, started: job.started, attempts: job.attempts)
            for follower in job.followers {
                fail(follower.sequence, follower.input, failure, started: follower.started, attempts: 0)
            }
        }
    }

    private func succeed(_ job: FetchJob, _ entry: ImageCache.Entry, cached: Bool, status: Int?) {
        // Checked for each record, followers too: a record's `mime` is its
        // own, and the body stays cached for one that names its type right.
        if let expected = ImageSignature.expected(job.input.record.string(GIFRecord.Field.mime)), let actual = entry.mime, actual != expected {
            let failure = FetchFailure("wrong_type", "the record says \(expected), but the body is \(actual)")
            return fail(job.sequence, job.input, failure, started: job.started)
        }
        let fetch = ImageRecord.Fetch(bytes: entry.bytes, sha256: entry.sha256, cached: cached, httpStatus: status,
                                      ms: elapsedMilliseconds(since: job.started))
        let image = ImageRecord(of: job.input.record, path: job.path, fetch: fetch)
        statistics.done += 1
        sequencer.emit(job.sequence, image.record().serialized())
    }

    private func fail(_ sequence: Int, _ input: InputRecord, _ failure: FetchFailure, started: UInt64, attempts: Int = 0,
                      remembered: String? = nil) {
        statistics.failed += 1
        statistics.done += 1
        if failure != .interrupted {
            let retried = attempts > 1 ? " (after \(attempts) attempts)" : ""
            stage.diagnostics.warning("stdin:\(input.line): \(failure.code): \(failure.message)\(retried)")
        }
        var error = ErrorRecord(failed: input.record, stage: stage.name, code: failure.code, message: failure.message)
        if attempts > 1 { error.attempts = attempts }
        error.ms = elapsedMilliseconds(since: started)
        error.remembered = remembered
        sequencer.emit(sequence, error.record().serialized())
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

    /// A transfer whose digest the hash thread has finished.
    private func store(_ stream: HashStream) {
        guard let transfer = hashing.removeValue(forKey: ObjectIdentifier(stream)) else { return }
        store(transfer, transfer.hashed())
    }

    private func rememberRefreshed(_ key: String) {
        if refreshed.count >= 100_000 { refreshed.removeAll() }  // bounded; a repeat after that is fetched again
        refreshed.insert(key)
    }
}

extension ImageFetchClient {
    /// Why the local file at `path` is not read, or nil: only a regular file
    /// is. It is opened without blocking, so a FIFO (whose open waits for a
    /// writer forever) or a device never holds the stage (issue 16 #5).
    static func unreadableLocalFile(_ path: String, url: String) -> FetchFailure? {
        // Looked at, never opened: opening a device can act (a watchdog
        // arms, a tty becomes the controlling terminal). A missing or
        // unreadable file is left to libcurl, which says so.
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return FetchFailure("not_gif", "\(RemoteText.visible(url)) is a folder, not a GIF file")
        case S_IFIFO: return FetchFailure("not_gif", "\(RemoteText.visible(url)) is a FIFO, not a GIF file (it is not read)")
        default: return FetchFailure("not_gif", "\(RemoteText.visible(url)) is not a regular file (it is not read)")
        }
    }
}

extension ImageFetchClient: RequestClient {
    func admit(_ sequence: Int, _ input: InputRecord) -> FetchJob? {
        guard input.record.kind == GIFRecord.kind else {
            sequencer.emit(sequence, input.raw)
            return nil
        }
        let started = monotonicNanoseconds()
        statistics.records += 1
        guard let url = input.record.string(GIFRecord.Field.url) else {
            fail(sequence, input, FetchFailure("bad_record", "a gif record needs a string url"), started: started)
            return nil
        }
        if let bad = url.unicodeScalars.firstIndex(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            let offset = url.unicodeScalars.distance(from: url.unicodeScalars.startIndex, to: bad)
            let what = url.unicodeScalars[bad] == " " ? "a space" : "a control or space character"
            fail(sequence, input, FetchFailure("bad_url", "the URL holds \(what) at character \(offset + 1) (a URL must percent-encode it): \(RemoteText.visible(redactedURL(url)))"), started: started)
            return nil
        }
        guard let parts = URLParts(url) else {
            fail(sequence, input, FetchFailure("bad_url", "not a URL with a scheme: \(redactedURL(url))"), started: started)
            return nil
        }
        let allowed = parts.scheme == "http" || parts.scheme == "https" || (parts.scheme == "file" && configuration.allowFile)
        guard allowed else {
            let hint = parts.scheme == "file" ? " (--allow-file allows file:// URLs)" : " (only http and https)"
            fail(sequence, input, FetchFailure("not_allowed", "\(parts.scheme):// URLs are not fetched\(hint)"), started: started)
            return nil
        }
        if parts.scheme == "file", let failure = Self.unreadableLocalFile(parts.path, url: url) {
            fail(sequence, input, failure, started: started)
            return nil
        }
        let key = input.record.string(GIFRecord.Field.cacheKey) ?? url
        let job = FetchJob(sequence: sequence, input: input, url: url, key: key, host: parts.host,
                           path: cache.path(forKey: key), started: started)
        if let leader = activeByKey[key] {
            stage.diagnostics.trace("same key as record \(leader.input.line), fetched once: \(describe(job))")
            leader.followers.append(job)
            return nil
        }
        let fresh = configuration.refresh && !refreshed.contains(key)
        if !fresh, let entry = cache.lookup(path: job.path) {
            statistics.cached += 1
            stage.diagnostics.trace("cached: \(describe(job))")
            succeed(job, entry, cached: true, status: nil)
            return nil
        }
        if !configuration.retryFailed && !fresh && parts.scheme != "file",
           let known = cache.recallFailure(forKey: key, now: Int(time(nil))) {
            statistics.remembered += 1
            let when = ImageCache.utcText(known.at)
            fail(sequence, input, FetchFailure(known.code, "\(known.message) (remembered from \(when): not fetched again for a day; fetch-images --retry-failed fetches it)"),
                 started: started, remembered: when)
            return nil
        }
        if let unwritable = cache.unwritable {
            // A read-only cache serves its hits; a download has nowhere to go.
            fail(sequence, input, FetchFailure("cache_write", "\(unwritable) (the cache is read-only: only cached images are served)"), started: started)
            return nil
        }
        activeByKey[key] = job
        return job
    }

    func gate(_ job: FetchJob, now: UInt64) -> RequestGate { .start }

    func start(_ job: FetchJob, on handle: RequestHandle) -> Result<ImageTransfer, FetchFailure> {
        let transfer = ImageTransfer(job: job, easy: handle.easy, temporaryPath: cache.temporaryPath(), maxBytes: configuration.maxBytes, hashing: hasher)
        do {
            try transfer.configure(configuration, share: handle.share)
        } catch {
            return .failure(FetchFailure("transfer", "libcurl refused an option: \(error)"))
        }
        return .success(transfer)
    }

    func complete(_ job: FetchJob, _ transfer: ImageTransfer, result: TransferResult, handle: RequestHandle) -> RequestCompletion {
        statistics.bytes += transfer.bytes
        switch transfer.outcome(result.code) {
        case .success(.ready(let entry)):
            store(transfer, entry)
            return .done
        case .success(.onHashThread):
            // The digest is finished on the hash thread; ``takeDeferred()`` takes it from there.
            hashing[ObjectIdentifier(transfer.stream)] = transfer
            return .deferred
        case .failure(let failure):
            return .failed(failure)
        }
    }

    func discard(_ transfer: ImageTransfer) { transfer.discard() }

    func fail(_ job: FetchJob, _ failure: FetchFailure) { finish(job, .failure(failure)) }

    func interrupt(_ jobs: [FetchJob], with failure: FetchFailure) {
        let stopped = jobs.reduce(0) { $0 + 1 + $1.followers.count }
        for job in jobs { finish(job, .failure(failure)) }
        if stopped > 0 && stage.stopReason != .downstreamClosed {
            stage.diagnostics.warning("stopped: \(stopped) records not fetched, written as \"interrupted\" error records")
        }
    }

    func takeDeferred() -> Int {
        let streams = hasher.takeFinished()
        for stream in streams { store(stream) }
        return streams.count
    }

    var deferredCount: Int { hashing.count }

    func finishDeferred() {
        // Transfers already complete are stored: their digests are moments away.
        for transfer in Array(hashing.values).sorted(by: { $0.job.sequence < $1.job.sequence }) { store(transfer.stream) }
    }

    func noteBadLines(_ count: Int) { statistics.failed += count }

    func noteRetry(_ job: FetchJob, _ failure: FetchFailure, delay: Double) { statistics.retries += 1 }

    func describe(_ job: FetchJob) -> String { RemoteText.visible(redactedURL(job.url)) }

    func progressLine(active: Int) -> String {
        statistics.fetchLine(total: stage.inputProgress.ended ? statistics.records : nil, active: active)
    }
}

extension RequestStatistics {
    /// One line for the end of a run, on a terminal.
    func fetchSummary() -> String {
        var text = "\(done) images, \(ByteCount.format(bytes)) fetched in \(String(cFormat: "%.1f", seconds))s"
        if cached > 0 { text += ", \(cached) from the cache" }
        if failed > 0 { text += ", \(failed) failed" }
        if remembered > 0 { text += " (\(remembered) remembered from an earlier run, not fetched again: --retry-failed)" }
        return text
    }

    /// The progress line: `total` records when the input has ended.
    func fetchLine(total known: Int?, active: Int) -> String {
        let count = known.map { "\(done)/\($0)" } ?? "\(done)/\(records)+"
        var parts = ["\(count) images", ByteCount.format(bytes), "\(ByteCount.format(Int(Double(bytes) / max(0.001, seconds))))/s", "\(active) active"]
        if cached > 0 { parts.append("\(cached) cached") }
        if retries > 0 { parts.append("\(retries) retries") }
        if failed > 0 { parts.append("\(failed) failed") }
        return parts.joined(separator: " · ")
    }
}
