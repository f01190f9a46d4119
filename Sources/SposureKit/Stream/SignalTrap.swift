import FoundationEssentials
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP into calls on a thread of our own.
///
/// The signals are blocked in every thread (so install this before starting
/// any) and a dedicated thread takes them with `sigwait`, where it is safe to
/// lock, wake curl and close queues. A second signal exits at once. SIGPIPE is
/// ignored: a closed pipe shows up as EPIPE from `write`. A stage installs it
/// in ``Stage/start(trapSignals:reading:)``, as its ``SignalPolicy`` says.
public enum SignalTrap {
    /// The signals handled.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the signals and calls `handler` on the trap thread for the first
    /// one that ends the run, and for every one of `extra` (SIGWINCH, SIGTSTP…).
    /// A second one exits at once, after `beforeForcedExit` (which gives back
    /// what must not be left behind, such as a terminal in raw mode).
    public static func install(extra: [Int32] = [], beforeForcedExit: (@Sendable () -> Void)? = nil,
                               _ handler: @escaping @Sendable (Int32) -> Void) {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled + extra { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let blocked = set
        Threads.start("signals") {
            var set = blocked
            var received: Int32 = 0
            var first = true
            while true {
                guard sigwait(&set, &received) == 0 else { continue }
                if extra.contains(received) {
                    handler(received)
                } else if first {
                    first = false
                    // Seen by arrived() from here on, before the handler runs
                    // (which may wait for a lock the stage holds while it looks).
                    takenLock.withLock { taken = received }
                    handler(received)
                } else {
                    beforeForcedExit?()
                    _exit(128 + received)
                }
            }
        }
    }

    /// The signal the trap thread took, once it has.
    nonisolated(unsafe) private static var taken: Int32?
    private static let takenLock = Lock()

    /// The ``handled`` signal that ends the run, if one has arrived: taken by
    /// the trap thread (though its handler may not have run yet) or still
    /// ``pending()``. What a stage's exit status is decided by.
    public static func arrived() -> Int32? {
        // Pending first, then taken: one taken between the two looks is seen by the second.
        let waiting = pending()
        return takenLock.withLock { taken } ?? waiting
    }

    /// One of the ``handled`` signals that has arrived but that the trap
    /// thread has not taken yet. A stage whose input ends at the moment a
    /// signal comes can get there first on a busy machine; the signal still
    /// decides the exit status.
    public static func pending() -> Int32? {
        var pending = sigset_t()
        sigemptyset(&pending)
        guard sigpending(&pending) == 0 else { return nil }
        return handled.first { sigismember(&pending, $0) == 1 }
    }
}
