import FoundationEssentials
import Glibc

/// A lock with a condition to wait on (pthread's, timed on the monotonic
/// clock): what Foundation's `NSCondition` was, used the same way: lock,
/// wait in a loop on the state it guards, signal or broadcast, unlock.
public final class Condition: Lock, @unchecked Sendable {
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked condition.
    public override init() {
        super.init()
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // A change of the wall clock neither ends a wait early nor stretches it.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Gives the lock back until signalled (or woken spuriously), then takes
    /// it again. Call holding the lock.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// ``wait()`` for at most `seconds` (31 years at most); false when the
    /// time ran out (or was not positive).
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        guard seconds > 0 else { return false }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let span = timespecSpan(seconds)
        deadline.tv_sec += span.tv_sec
        deadline.tv_nsec += span.tv_nsec
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// ``wait()`` until `date` at the latest; false when it passed.
    @discardableResult
    public func wait(until date: Date) -> Bool {
        wait(seconds: date.timeIntervalSinceNow)
    }

    /// Wakes one waiter. Call holding the lock.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter. Call holding the lock.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
