import FoundationEssentials
import Glibc
import SposureKit
import GIFEngine

/// The frames of one GIF as they are decoded: the decoder thread appends,
/// the player reads. The player asking for frame `n` asks for the frames up
/// to `n` + the look-ahead to be decoded, and waits only when frame `n` is
/// not there yet.
///
/// The lock is a condition shared by all the stores the preloader starts, so
/// the finisher can wait for demand from any of them; a store fitted again on
/// resize, which a thread of its own decodes, has one of its own.
public final class FrameStore: @unchecked Sendable {
    private let condition: Condition
    private var pictures: [CellPicture] = []
    private var delays: [Int] = []
    private var ended = false
    private var cancelled = false
    private var wanted = 0
    private var ahead = 1
    private var fault: GIFError?

    init(condition: Condition) { self.condition = condition }

    /// Frames decoded so far.
    public var decoded: Int { condition.withLock { pictures.count } }
    /// Whether every frame there will be is decoded.
    public var isEnded: Bool { condition.withLock { ended } }
    /// The fault that ended the frames early, if one did.
    public var truncation: GIFError? { condition.withLock { fault } }

    /// Whether frame `index` exists: waits until it is decoded or the frames end.
    ///
    /// Frames are asked for in bursts: when fewer than a third of the
    /// look-ahead are decoded past `index`, the decoder is asked for the whole
    /// look-ahead again. Decoding ten frames at once, with giflib's tables and
    /// the caches warm, costs less than one at a time between frames.
    public func has(_ index: Int) -> Bool {
        condition.withLock {
            askFor(index)
            while pictures.count <= index && !ended && !cancelled { condition.wait() }
            return index < pictures.count
        }
    }

    /// Asks the decoder for the look-ahead past `index` when fewer than a
    /// third of it are decoded (under the lock).
    private func askFor(_ index: Int) {
        if pictures.count < index + 1 + max(1, ahead / 3) && index + ahead > wanted {
            wanted = index + ahead
            condition.broadcast()
        }
    }

    /// Whether frame `index` is decoded (true), never will be (false: the
    /// frames ended before it), or may still come (nil). Asks for it as
    /// ``has(_:)`` does, without waiting.
    public func decodedYet(_ index: Int) -> Bool? {
        condition.withLock {
            askFor(index)
            if index < pictures.count { return true }
            return ended || cancelled ? false : nil
        }
    }

    /// Frame `index` (which exists).
    public func picture(_ index: Int) -> CellPicture {
        condition.withLock { pictures[index] }
    }

    /// The delay of frame `index` (which exists), in ms.
    public func delay(_ index: Int) -> Int {
        condition.withLock { delays[index] }
    }

    /// No more frames are wanted: the GIF will not be shown (again).
    public func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    // MARK: The decoder's side

    /// At least 4 frames: a GIF whose first 0.3 s is one frame (a slide show,
    /// a long title frame) still gets several frames decoded at a time.
    func lookAhead(frames: Int) {
        condition.withLock { ahead = max(4, frames) }
    }

    func append(_ picture: CellPicture, delay: Int) {
        condition.withLock {
            pictures.append(picture)
            delays.append(delay)
            condition.broadcast()
        }
    }

    func end(truncation: GIFError?) {
        condition.withLock {
            ended = true
            fault = truncation
            condition.broadcast()
        }
    }

    /// Waits until a frame not decoded yet is wanted (true), or none ever will
    /// be (false: the frames ended or the GIF was dropped).
    public func waitForDemand() -> Bool {
        condition.withLock {
            while pictures.count >= wanted && !ended && !cancelled { condition.wait() }
            return !ended && !cancelled
        }
    }
}
