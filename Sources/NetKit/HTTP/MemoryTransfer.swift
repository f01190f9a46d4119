import CCurl
import CurlShim
import SposureKit

/// A finished API call: what ``MemoryTransfer/response(_:)`` gives.
public struct HTTPResponse: Sendable {
    /// The caller's tag for the request.
    public var tag: Int
    /// The HTTP status, 0 when no response came.
    public var status: Int
    /// The body (at most the transfer's `maxBodyBytes`).
    public var body: [UInt8]
    /// Seconds the server asked to wait (`Retry-After`), when it did.
    public var retryAfter: Int?
    /// Why the transfer failed, when it did (an HTTP error status is not a failure here).
    public var failure: FetchFailure?
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
    init(tag: Int = 0, easy: CurlEasy, maxBodyBytes: Int = 16 << 20) {
        self.tag = tag
        self.easy = easy
        self.maxBodyBytes = maxBodyBytes
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorBuffer.deallocate() }

    /// A GET of `url` (http or https only) on `handle`, just reset, its body
    /// kept in memory up to `maxBodyBytes`; a failure when libcurl refuses an option.
    public static func get(_ url: String, on handle: RequestHandle, tag: Int = 0, maxBodyBytes: Int = 16 << 20,
                           connectTimeout: Double = 10, timeout: Double = 30) -> Result<MemoryTransfer, FetchFailure> {
        let transfer = MemoryTransfer(tag: tag, easy: handle.easy, maxBodyBytes: maxBodyBytes)
        if let failure = transfer.configure(url: url, connectTimeout: connectTimeout, timeout: timeout, share: handle.share) {
            return .failure(failure)
        }
        return .success(transfer)
    }

    /// Sets the options of a GET of `url` (http or https only) on the reset
    /// handle; a failure when libcurl refuses one.
    func configure(url: String, connectTimeout: Double, timeout: Double, share: UnsafeMutableRawPointer?) -> FetchFailure? {
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
            try easy.set(CURLOPT_USERAGENT, UserAgent.current)
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

    /// What came back, once the transfer has ended with `result`.
    public func response(_ result: TransferResult) -> HTTPResponse { response(result.code) }

    /// What came back, once libcurl has finished with `result`.
    func response(_ result: CURLcode) -> HTTPResponse {
        let status = easy.responseCode
        let retryAfter = easy.info(offset: CURLINFO_RETRY_AFTER)
        var failure: FetchFailure?
        if tooLarge {
            failure = FetchFailure("too_large", "response over \(maxBodyBytes) bytes")
        } else if result != CURLE_OK {
            failure = .curl(result, detail: String(cString: errorBuffer))
        }
        return HTTPResponse(tag: tag, status: status, body: body,
                                   retryAfter: retryAfter > 0 ? Int(retryAfter) : nil, failure: failure)
    }
}

private let memoryTransferWrite: CurlShimDataCallback = { data, size, count, user in
    guard let user, let data else { return 0 }
    let transfer = Unmanaged<MemoryTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count))
}
