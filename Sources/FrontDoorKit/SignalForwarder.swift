import FoundationEssentials
import Glibc
import SposureKit

/// Passes on to a round's programs the ending signals that a process sent to
/// `sposure` alone (`kill PID`), and remembers the signal.
///
/// The programs run in sposure's own process group, as in a shell script, so
/// what the terminal sends (Ctrl-C, a hang-up) reaches each of them already:
/// those (`si_code` SI_KERNEL) are not sent twice, as a second SIGINT would
/// make a stage exit at once, without its records.
public enum SignalForwarder {
    /// The signals passed on.
    public static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private static let lock = Lock()
    nonisolated(unsafe) private static var running: Set<pid_t> = []
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var last: Int32?

    /// The siginfo code of a signal the kernel sent (a terminal's).
    private static let sentByKernel: Int32 = 0x80

    /// Blocks the signals in the calling thread (call before any other thread
    /// starts) and starts the thread that takes them. Once per process.
    public static func install() {
        let first = lock.withLock { () -> Bool in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for signal in forwarded { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let blocked = set
        Threads.start("signals") {
            var set = blocked
            while true {
                var info = siginfo_t()
                let signal = sigwaitinfo(&set, &info)
                guard signal > 0 else { continue }
                let pids = lock.withLock { () -> Set<pid_t> in
                    last = signal
                    return running
                }
                if info.si_code != sentByKernel {
                    for pid in pids { kill(pid, signal) }
                }
            }
        }
    }

    /// The last ending signal sposure received, if any.
    public static var received: Int32? { lock.withLock { last } }

    /// Sends `signal` to every program still running.
    public static func forward(_ signal: Int32) {
        for pid in lock.withLock({ running }) { kill(pid, signal) }
    }

    /// Starts a program with `start` (its pid and posix_spawn's status) and
    /// counts it among the running, all while no signal can be passed on: a
    /// signal that came between the start and the count was lost, and the
    /// program never heard it (a stage sleeping on would hold the round). A
    /// signal sposure received before (while the pipeline was being set up)
    /// is passed on to it at once.
    static func starting(_ start: () -> (pid: pid_t, status: Int32)) -> (pid: pid_t, status: Int32) {
        lock.withLock {
            let started = start()
            guard started.status == 0 else { return started }
            running.insert(started.pid)
            if let last { kill(started.pid, last) }
            return started
        }
    }
    static func ended(_ pid: pid_t) { lock.withLock { _ = running.remove(pid) } }
}
