import Hashing
import Dispatch
import FoundationEssentials
import Glibc
import SposureKit
import NetKit

/// Hashes the bodies of transfers on a thread of its own, so SHA-256 (a third
/// of the work on large GIFs) runs beside libcurl instead of in its way.
///
/// ```
/// curl thread ──64 KB blocks, then "finish"──▶ [bounded queue] ──▶ hash thread (SHA-256 per stream)
///      ▲                                                                 │
///      └──── finished streams (``takeFinished()``), and a wake-up ◀──────┘
/// ```
///
/// The curl thread never waits for a digest: a finished transfer is handed
/// over with ``finish(_:)`` and picked up again, digest ready, once
/// ``takeFinished()`` returns it. The blocks go over without a copy and come
/// back for reuse (``takeBlock()``).
final class HashWorker: @unchecked Sendable {
    private enum Job {
        case update(HashStream, UnsafeMutableRawBufferPointer, Int)
        case finish(HashStream)
    }

    /// The size of the blocks transfers gather their bodies in; under
    /// malloc's mmap threshold, and recycled here besides.
    static let blockSize = 64 << 10
    /// Blocks kept for reuse, at most.
    private static let spareBlocks = 96
    private var spare: [UnsafeMutableRawBufferPointer] = []

    private let queue = BoundedQueue<Job>(capacity: 64)
    private let lock = Lock()
    private var finished: [HashStream] = []

    /// Starts the hash thread; it lives as long as the process. `wake` is
    /// called on that thread after each stream is finished.
    init(wake: @escaping @Sendable () -> Void = {}) {
        Threads.start("hash") { [queue, self] in
            while case let jobs = queue.popBatch(max: 16), !jobs.isEmpty {
                var done = false
                for job in jobs {
                    switch job {
                    case .update(let stream, let block, let count):
                        stream.update(UnsafeRawBufferPointer(rebasing: block[0..<count]))
                        giveBack(block)
                    case .finish(let stream):
                        stream.finish()
                        lock.withLock { finished.append(stream) }
                        done = true
                    }
                }
                if done { wake() }
            }
        }
    }

    /// A block of ``blockSize`` bytes to gather a body in, new or reused.
    func takeBlock() -> UnsafeMutableRawBufferPointer {
        lock.withLock { spare.popLast() } ?? .allocate(byteCount: Self.blockSize, alignment: 64)
    }

    /// A block that is no longer needed.
    func giveBack(_ block: UnsafeMutableRawBufferPointer) {
        let kept = lock.withLock {
            guard spare.count < Self.spareBlocks else { return false }
            spare.append(block)
            return true
        }
        if !kept { block.deallocate() }
    }

    /// Hashes the first `count` bytes of `block` next in `stream`, then takes
    /// the block back (waits when the queue is full). The caller must not touch
    /// the block after this.
    func submit(_ stream: HashStream, _ block: UnsafeMutableRawBufferPointer, count: Int) {
        queue.push(.update(stream, block, count))
    }

    /// Ends `stream`: its digest will be ready when ``takeFinished()`` returns it.
    func finish(_ stream: HashStream) {
        queue.push(.finish(stream))
    }

    /// The streams finished since the last call.
    func takeFinished() -> [HashStream] {
        lock.withLock {
            defer { finished.removeAll(keepingCapacity: true) }
            return finished
        }
    }
}

/// One transfer's running SHA-256, touched only by the hash thread.
final class HashStream: @unchecked Sendable {
    private var hasher = SHA256()
    private var hex = ""
    private let done = DispatchSemaphore(value: 0)

    fileprivate func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    fileprivate func finish() {
        hex = hasher.finalize().hexString
        done.signal()
    }

    /// The hex digest, once the stream is finished (waits until then).
    var digest: String {
        done.wait()
        done.signal()
        return hex
    }
}
