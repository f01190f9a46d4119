import Glibc

/// A mutex (a pthread one): what Foundation's `NSLock` was, without loading
/// Foundation and its ICU tables into every tool at start-up.
/// ``Condition`` is one with a condition to wait on.
public class Lock: @unchecked Sendable {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// An unlocked lock.
    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it.
    public final func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock back.
    public final func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if it is free; false, without waiting, when it is not.
    public final func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// `body`'s result, run holding the lock.
    public final func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
