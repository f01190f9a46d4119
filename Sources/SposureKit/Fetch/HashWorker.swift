import Crypto
import Foundation

/// Hashes the bodies of transfers on a thread of its own, so SHA-256 (a third
/// of the work on large GIFs) runs beside libcurl instead of in its way.
///
/// ```
/// curl thread ──64 KB blocks──▶ [bounded queue] ──▶ hash thread (SHA-256 per stream)
///      ▲                                                  │
///      └────────── digest (waits only for its own blocks) ┘
/// ```
final class HashWorker: @unchecked Sendable {
    private enum Job {
        case update(HashStream, [UInt8])
        case finish(HashStream)
    }

    private let queue = BoundedQueue<Job>(capacity: 64)

    /// Starts the hash thread; it lives as long as the process.
    init() {
        let thread = Thread { [queue] in
            while case let jobs = queue.popBatch(max: 16), !jobs.isEmpty {
                for job in jobs {
                    switch job {
                    case .update(let stream, let bytes): stream.update(bytes)
                    case .finish(let stream): stream.finish()
                    }
                }
            }
        }
        thread.name = "hash"
        thread.start()
    }

    /// Hashes `bytes` next in `stream` (waits when the queue is full).
    func submit(_ stream: HashStream, _ bytes: [UInt8]) {
        queue.push(.update(stream, bytes))
    }

    /// The hex digest of everything submitted to `stream`, once it is all hashed.
    func digest(_ stream: HashStream) -> String {
        queue.push(.finish(stream))
        return stream.wait()
    }
}

/// One transfer's running SHA-256, touched only by the hash thread.
final class HashStream: @unchecked Sendable {
    private var hasher = SHA256()
    private var hex = ""
    private let done = DispatchSemaphore(value: 0)

    fileprivate func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    }

    fileprivate func finish() {
        hex = hasher.finalize().hexString
        done.signal()
    }

    fileprivate func wait() -> String {
        done.wait()
        return hex
    }
}
