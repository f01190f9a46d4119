import Glibc

/// Threads of the tools' own (pthreads, detached): what Foundation's
/// `Thread` was, without loading Foundation at start-up.
public enum Threads {
    /// Runs `body` on a new thread called `name` (at most 15 bytes show in
    /// `ps` and `top`). The thread ends when `body` returns; no one joins it.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            if let setName = Threads.setName {
                _ = String(body.name.utf8.prefix(15)).map { name in name.withCString { setName(pthread_self(), $0) } }
            }
            body.run()
            return nil
        }, box)
        guard started == 0 else {
            // Out of threads or memory: nothing a stage could go on without.
            fatalError("cannot start the \(name) thread: \(String(cString: strerror(started)))")
        }
        pthread_detach(thread)
    }

    /// Sleeps this thread for `seconds` (nothing when not positive; 31 years at most).
    public static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespecSpan(seconds)
        var left = timespec()
        while nanosleep(&request, &left) == -1 && errno == EINTR { request = left }
    }

    /// glibc's `pthread_setname_np`, which its module map hides (a GNU extension).
    private static let setName: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
