import CCurl
import Hashing
import CurlShim
import FoundationEssentials
import Glibc
import SposureKit
import NetKit

/// One record to fetch, from the moment it is read until its output is made.
final class FetchJob: RequestJob {
    /// The input record, changed into the output record at the end.
    let input: InputRecord
    let url: String
    /// The cache key (`cache_key`, else the URL).
    let key: String
    let path: String
    let started: UInt64
    /// Records with the same key read while this one was in flight.
    var followers: [FetchJob] = []

    init(sequence: Int, input: InputRecord, url: String, key: String, host: String, path: String, started: UInt64) {
        self.input = input
        self.url = url
        self.key = key
        self.path = path
        self.started = started
        super.init(sequence: sequence, host: host)
    }
}

/// One attempt at one job: an easy handle, a temporary file and what came in.
///
/// The write callback checks the signature and the size cap as bytes arrive,
/// hashes them and writes them to the temporary file; anything wrong stops
/// the transfer at once by returning 0 to libcurl.
final class ImageTransfer {
    let job: FetchJob
    let easy: CurlEasy
    let temporaryPath: String
    private let maxBytes: Int
    private(set) var bytes = 0
    private(set) var status = 0
    private var fd: Int32 = -1
    private var head: [UInt8] = []
    private let hashing: HashWorker
    /// The running SHA-256 of the body.
    let stream = HashStream()
    private var discarded = 0
    /// Set by the write callback when it stops the transfer.
    private(set) var failure: FetchFailure?
    /// libcurl's detailed message for a failed transfer.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(job: FetchJob, easy: CurlEasy, temporaryPath: String, maxBytes: Int, hashing: HashWorker) {
        self.hashing = hashing
        self.job = job
        self.easy = easy
        self.temporaryPath = temporaryPath
        self.maxBytes = maxBytes
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed { unlink(temporaryPath) }
        releaseBlock()
        errorBuffer.deallocate()
    }

    /// Set once the file is renamed into the cache: nothing to remove then.
    var committed = false

    /// Sets every option of the attempt on the (reset) easy handle.
    func configure(_ configuration: FetchConfiguration, share: UnsafeMutableRawPointer?) throws(CurlError) {
        let protocols = configuration.allowFile ? "http,https,file" : "http,https"
        try easy.set(CURLOPT_URL, job.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, protocols)
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, 1)
        try easy.set(CURLOPT_MAXREDIRS, 5)
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit)
        try easy.set(CURLOPT_LOW_SPEED_TIME, max(1, Int(configuration.lowSpeedTime.rounded(.up))))
        try easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(configuration.maxBytes))
        try easy.set(CURLOPT_HTTP_VERSION, configuration.httpVersion.curlValue)
        if configuration.httpVersion != .http1 && job.url.utf8.count > 8 && job.url.prefix(8).lowercased() == "https://" {
            // Wait for a connection that may multiplex rather than open another;
            // only TLS connections can turn out to speak HTTP/2 here.
            try easy.set(CURLOPT_PIPEWAIT, 1)
        }
        try easy.set(CURLOPT_BUFFERSIZE, 128 << 10)
        try easy.set(CURLOPT_USERAGENT, UserAgent.current)
        try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try easy.set(CURLOPT_WRITEFUNCTION, callback: imageTransferWrite)
        try easy.set(CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(self).toOpaque())
        if let share { try easy.set(CURLOPT_SHARE, pointer: share) }
    }

    /// Takes one piece of the body; returns how much was taken (less stops the transfer).
    fileprivate func receive(_ data: UnsafeRawBufferPointer) -> Int {
        if status == 0 { status = easy.responseCode }
        if status != 0 && !(200..<300).contains(status) {
            // An error page: read a little of it so the connection can be reused, no more.
            discarded += data.count
            return discarded > 64 << 10 ? 0 : data.count
        }
        if bytes + data.count > maxBytes {
            failure = FetchFailure("too_large", "body is over --max-bytes \(maxBytes) bytes")
            return 0
        }
        if head.count < ImageSignature.length {
            head.append(contentsOf: data.prefix(ImageSignature.length - head.count))
            if head.count == ImageSignature.length && ImageSignature.mime(of: head) == nil {
                failure = notGIF()
                return 0
            }
        }
        bytes += data.count
        // Pieces arrive a few KB at a time: gather them in a 64 KB block, write
        // it when full, and hand the block itself to the hash thread.
        var rest = data
        while !rest.isEmpty {
            if block == nil { block = hashing.takeBlock() }
            let n = min(rest.count, Self.blockSize - blockCount)
            UnsafeMutableRawBufferPointer(rebasing: block![blockCount..<(blockCount + n)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[0..<n]))
            blockCount += n
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
            if blockCount == Self.blockSize && !flush() { return 0 }
        }
        return data.count
    }

    /// How much is gathered before a write.
    static let blockSize = HashWorker.blockSize
    private var block: UnsafeMutableRawBufferPointer?
    private var blockCount = 0

    /// Writes the gathered block and hands it to the hash thread; false (with
    /// ``failure`` set) when it cannot be written.
    private func flush() -> Bool {
        guard let block, blockCount > 0 else { return true }
        guard writeOut(UnsafeRawBufferPointer(rebasing: block[0..<blockCount])) else { return false }
        hashing.submit(stream, block, count: blockCount)
        self.block = nil
        blockCount = 0
        return true
    }

    private func writeOut(_ data: UnsafeRawBufferPointer) -> Bool {
        if fd < 0 {
            fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 {
                failure = FetchFailure("cache_write", "cannot create \(temporaryPath): \(String(cString: strerror(errno)))")
                return false
            }
        }
        if let code = writeAll(fd, data) {
            failure = FetchFailure("cache_write", "cannot write \(temporaryPath): \(String(cString: strerror(code)))")
            return false
        }
        return true
    }

    /// How a complete body's digest comes.
    enum Digesting {
        /// Already made (a body of one block, hashed here: quicker than a trip to the hash thread).
        case ready(ImageCache.Entry)
        /// Being finished on the hash thread: ``hashed()`` once it is.
        case onHashThread
    }

    /// What the finished attempt amounts to: the body written, with its
    /// digest or its digest on the way, or why not.
    func outcome(_ result: CURLcode) -> Result<Digesting, FetchFailure> {
        status = easy.responseCode
        if let failure { return .failure(failure) }
        if status != 0 && !(200..<300).contains(status) && (result == CURLE_OK || result == CURLE_WRITE_ERROR) {
            return .failure(.http(status, url: job.url))
        }
        if result != CURLE_OK {
            return .failure(.curl(result, detail: String(cString: errorBuffer)))
        }
        guard let mime = ImageSignature.mime(of: head) else { return .failure(notGIF()) }
        if fd < 0, let block {
            // The whole body is in one block: write it and hash it here.
            let body = UnsafeRawBufferPointer(rebasing: block[0..<blockCount])
            guard writeOut(body) else { return .failure(failure ?? FetchFailure("cache_write", "cannot write \(temporaryPath)")) }
            var hasher = SHA256()
            hasher.update(bufferPointer: body)
            let entry = ImageCache.Entry(bytes: bytes, sha256: hasher.finalize().hexString, mime: mime)
            releaseBlock()
            return .success(.ready(entry))
        }
        // The last gathered piece goes to the file (and the hash) before the digest.
        guard flush() else { return .failure(failure ?? FetchFailure("cache_write", "cannot write \(temporaryPath)")) }
        hashing.finish(stream)
        return .success(.onHashThread)
    }

    private func releaseBlock() {
        if let block { hashing.giveBack(block) }
        block = nil
        blockCount = 0
    }

    /// The cache entry, once the hash thread has finished ``stream``.
    func hashed() -> ImageCache.Entry {
        ImageCache.Entry(bytes: bytes, sha256: stream.digest, mime: ImageSignature.mime(of: head))
    }

    /// Writes what is gathered and closes the temporary file, keeping it for
    /// the cache to rename.
    func closeFile() -> Bool {
        guard flush(), fd >= 0 else { return false }
        let ok = close(fd) == 0
        fd = -1
        return ok
    }

    /// Closes and removes the temporary file, if any.
    func discard() {
        releaseBlock()
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if !committed { unlink(temporaryPath) }
        committed = true
    }

    private func notGIF() -> FetchFailure {
        if head.isEmpty { return FetchFailure("not_gif", "empty body") }
        // A local file's bytes are never quoted: --allow-file must not turn
        // a record into a way to read the start of /etc/shadow.
        if job.url.prefix(5).lowercased() == "file:" {
            return FetchFailure("not_gif", "the file is not a \(ImageSignature.names) (it starts with none of their signatures)")
        }
        let shown = head.prefix(6).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
        return FetchFailure("not_gif", "body starts with \"\(shown)\", not a \(ImageSignature.names)")
    }
}

/// libcurl's write callback for image transfers.
private let imageTransferWrite: CurlShimDataCallback = { data, size, count, user in
    guard let user, let data else { return 0 }
    let transfer = Unmanaged<ImageTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count))
}

extension HTTPVersion {
    var curlValue: Int {
        switch self {
        case .auto: return Int(CURL_HTTP_VERSION_2TLS)
        case .http1: return Int(CURL_HTTP_VERSION_1_1)
        case .http2: return Int(CURL_HTTP_VERSION_2_0)
        }
    }
}
