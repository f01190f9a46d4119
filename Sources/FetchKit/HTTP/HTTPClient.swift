import CCurl
import CurlShim
import FoundationEssentials
import Glibc
import SposureKit

/// Small HTTP GETs into memory over one libcurl multi handle: the API client
/// of `giphy-pages` (the images go through ``ImageFetcher``, which streams to disk).
///
/// Not thread-safe except ``wakeup()``: one thread starts requests and calls
/// ``wait(milliseconds:)``, which drives every transfer and returns those done.
public final class HTTPClient {
    /// A finished request.
    public struct Response: Sendable {
        /// The caller's tag for the request.
        public var tag: Int
        /// The HTTP status, 0 when no response came.
        public var status: Int
        /// The body (at most the client's `maxBodyBytes`).
        public var body: [UInt8]
        /// Seconds the server asked to wait (`Retry-After`), when it did.
        public var retryAfter: Int?
        /// Why the transfer failed, when it did (an HTTP error status is not a failure here).
        public var failure: FetchFailure?
    }

    private let multi: CurlMulti
    private let maxBodyBytes: Int
    private let connectTimeout: Double
    private let timeout: Double
    private var idle: [CurlEasy] = []
    private var active: [UnsafeMutableRawPointer: MemoryTransfer] = [:]

    /// A client with at most `concurrency` connections, bodies up to `maxBodyBytes`,
    /// and `timeout` seconds for a whole request.
    public init?(concurrency: Int, maxBodyBytes: Int = 16 << 20, connectTimeout: Double = 10, timeout: Double = 30) {
        guard let multi = CurlMulti(maxConnections: concurrency, maxPerHost: concurrency) else { return nil }
        self.multi = multi
        self.maxBodyBytes = maxBodyBytes
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// How many requests are in flight.
    public var activeCount: Int { active.count }

    /// Ends a ``wait(milliseconds:)`` early; safe from any thread.
    public var wakeup: @Sendable () -> Void { { [multi] in multi.wakeup() } }

    /// Starts a GET of `url` (http or https only); its response comes back from
    /// ``wait(milliseconds:)`` with `tag`. Returns a failure when it could not start.
    public func start(_ url: String, tag: Int) -> FetchFailure? {
        guard let easy = idle.popLast() ?? CurlEasy() else {
            return FetchFailure("transfer", "libcurl could not make a handle")
        }
        easy.reset()
        let transfer = MemoryTransfer(tag: tag, easy: easy, maxBodyBytes: maxBodyBytes)
        if let failure = transfer.configure(url: url, connectTimeout: connectTimeout, timeout: timeout, share: multi.share) {
            idle.append(easy)
            return failure
        }
        guard multi.add(easy) else {
            idle.append(easy)
            return FetchFailure("transfer", "libcurl could not start the transfer")
        }
        active[easy.handle] = transfer
        return nil
    }

    /// Drives the transfers for up to `milliseconds` (less when one finishes or
    /// on ``wakeup()``) and returns the responses that are complete.
    public func wait(milliseconds: Int) -> [Response] {
        multi.perform()
        var done = collect()
        guard done.isEmpty else { return done }
        multi.poll(milliseconds: milliseconds)
        multi.perform()
        done = collect()
        return done
    }

    /// Drops every request in flight.
    public func cancelAll() {
        for (_, transfer) in active { multi.remove(transfer.easy) }
        active.removeAll()
    }

    private func collect() -> [Response] {
        var responses: [Response] = []
        for (handle, result) in multi.finished() {
            guard let transfer = active.removeValue(forKey: handle) else { continue }
            multi.remove(transfer.easy)
            idle.append(transfer.easy)
            responses.append(transfer.response(result))
        }
        return responses
    }
}

/// One request's body, collected in memory up to a cap: an API call.
public final class MemoryTransfer {
    let tag: Int
    let easy: CurlEasy
    let maxBodyBytes: Int
    var body: [UInt8] = []
    var tooLarge = false
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// A transfer on `easy` keeping at most `maxBodyBytes` of the body.
    public init(tag: Int = 0, easy: CurlEasy, maxBodyBytes: Int = 16 << 20) {
        self.tag = tag
        self.easy = easy
        self.maxBodyBytes = maxBodyBytes
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorBuffer.deallocate() }

    /// Sets the options of a GET of `url` (http or https only) on the reset
    /// handle; a failure when libcurl refuses one.
    public func configure(url: String, connectTimeout: Double, timeout: Double, share: UnsafeMutableRawPointer?) -> FetchFailure? {
        do {
            try easy.set(CURLOPT_URL, url)
            try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            try easy.set(CURLOPT_FOLLOWLOCATION, 1)
            try easy.set(CURLOPT_MAXREDIRS, 5)
            try easy.set(CURLOPT_NOSIGNAL, 1)
            try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
            try easy.set(CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
            try easy.set(CURLOPT_ACCEPT_ENCODING, "")
            try easy.set(CURLOPT_USERAGENT, "sposure/1")
            try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
            try easy.set(CURLOPT_WRITEFUNCTION, callback: memoryTransferWrite)
            try easy.set(CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(self).toOpaque())
            if let share { try easy.set(CURLOPT_SHARE, pointer: share) }
        } catch {
            return FetchFailure("transfer", "libcurl refused an option: \(error)")
        }
        return nil
    }

    func receive(_ data: UnsafeRawBufferPointer) -> Int {
        guard body.count + data.count <= maxBodyBytes else {
            tooLarge = true
            return 0
        }
        body.append(contentsOf: data)
        return data.count
    }

    /// What came back, once libcurl has finished with `result`.
    public func response(_ result: CURLcode) -> HTTPClient.Response {
        let status = easy.responseCode
        let retryAfter = easy.info(offset: CURLINFO_RETRY_AFTER)
        var failure: FetchFailure?
        if tooLarge {
            failure = FetchFailure("too_large", "response over \(maxBodyBytes) bytes")
        } else if result != CURLE_OK {
            failure = .curl(result, detail: String(cString: errorBuffer))
        }
        return HTTPClient.Response(tag: tag, status: status, body: body,
                                   retryAfter: retryAfter > 0 ? Int(retryAfter) : nil, failure: failure)
    }
}

private let memoryTransferWrite: CurlShimDataCallback = { data, size, count, user in
    guard let user, let data else { return 0 }
    let transfer = Unmanaged<MemoryTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count))
}
