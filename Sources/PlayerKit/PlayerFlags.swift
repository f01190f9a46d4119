import FoundationEssentials
import Glibc
import SposureKit

/// Flags the signal thread sets and the player takes.
final class PlayerFlags: @unchecked Sendable {
    private let lock = Lock()
    private var resize = false
    private var redraw = false
    private var suspendedAt: Int?

    func set(resize value: Bool) { lock.withLock { resize = value } }
    func set(redraw value: Bool) { lock.withLock { redraw = value } }
    func set(suspendedAt value: Int) { lock.withLock { suspendedAt = suspendedAt ?? value } }

    func takeResize() -> Bool {
        lock.withLock {
            defer { resize = false }
            return resize
        }
    }

    func takeRedraw() -> Bool {
        lock.withLock {
            defer { redraw = false }
            return redraw
        }
    }

    func takeSuspended() -> Int? {
        lock.withLock {
            defer { suspendedAt = nil }
            return suspendedAt
        }
    }
}
