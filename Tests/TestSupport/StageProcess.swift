// Runs a built executable of this package over real pipes, for end-to-end tests.
//
//   test thread ──feed()/closeStdin()──▶ stdin feeder thread ──write──▶ child stdin
//   child stdout ──read──▶ stdout drainer thread ──▶ bytes + line count (+ condition)
//   child stderr ──read──▶ stderr drainer thread ──▶ bytes
//   Process termination handler ──▶ semaphore ──▶ wait(timeout:) joins the threads
//
// Both outputs are drained while the child runs: reading a pipe only after the
// child exits deadlocks as soon as the child writes more than a pipe holds.
// Every descriptor made here is close-on-exec, so a child spawned by another
// test running at the same time never holds one of our pipes open.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running executable of this package with its stdin, stdout and stderr on pipes.
public final class StageProcess: @unchecked Sendable {

    /// How a run ended and what it printed.
    public struct Result: Sendable, CustomStringConvertible {
        /// The exit status, or the signal number when `exited` is false.
        public var status: Int32
        /// True when the child called exit; false when a signal ended it.
        public var exited: Bool
        /// True when the child outlived the safety timeout and was killed.
        public var timedOut: Bool
        /// Everything read from stdout (up to the closing point, when stdout was closed early).
        public var stdout: [UInt8]
        /// stdout split at `\n`, without the newline; a last line without one is included.
        public var stdoutLines: [String]
        /// Whether stdout was empty or ended with `\n`.
        public var stdoutEndsWithNewline: Bool
        /// stderr, decoded as UTF-8.
        public var stderr: String
        /// The exit code, or nil when a signal ended the child.
        public var exitCode: Int32? { exited ? status : nil }

        /// A short summary for test failure messages (not the whole output).
        public var description: String {
            let end = timedOut ? "killed after the timeout" : exited ? "exit \(status)" : "signal \(status)"
            let firstLines = stdoutLines.prefix(3).joined(separator: "\n  ")
            return "\(end); \(stdoutLines.count) stdout lines:\n  \(firstLines)\nstderr: \(stderr.prefix(600))"
        }
    }

    /// Failures to find or start an executable.
    public enum Failure: Error, CustomStringConvertible {
        /// No executable of that name beside the test binary.
        case executableNotFound(String, searched: [String])
        /// A system call failed while setting up the pipes.
        case system(String, Int32)

        /// A readable message.
        public var description: String {
            switch self {
            case let .executableNotFound(name, searched):
                "executable \(name) not found in: \(searched.joined(separator: ", "))"
            case let .system(call, code):
                "\(call): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The child's process id.
    public let pid: Int32

    private let process: Process
    private let exited = DispatchSemaphore(value: 0)
    private let lock = NSCondition()
    private var stdinQueue: [[UInt8]] = []
    private var stdinClosing = false
    private var stdoutBytes: [UInt8] = []
    private var stdoutLineCount = 0
    private var stdoutDone = false
    private var stderrBytes: [UInt8] = []
    private var threads: [pthread_t] = []
    private var result: Result?

    /// Finds an executable of this package beside the running test binary.
    ///
    /// Looks in `$SPOSURE_BIN_DIR` when set, then in the folder of the running
    /// binary (`/proc/self/exe`) and the folders above it, up to the build folder.
    public static func executableURL(named name: String) throws -> URL {
        var searched: [String] = []
        var folders: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["SPOSURE_BIN_DIR"], !dir.isEmpty {
            folders.append(URL(fileURLWithPath: dir))
        }
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: running).deletingLastPathComponent()
        for _ in 0..<5 {
            folders.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            searched.append(folder.path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw Failure.executableNotFound(name, searched: searched)
    }

    /// Starts `name` (an executable of this package) with its stdio on pipes.
    ///
    /// - Parameters:
    ///   - arguments: the command-line arguments.
    ///   - environment: variables set on top of this process's environment.
    ///   - unsetEnvironment: variables removed from the inherited environment.
    ///   - stdin: bytes written to the child's stdin from a separate thread.
    ///   - keepStdinOpen: leave stdin open after `stdin` until `closeStdin()`.
    ///   - closeStdoutAfterLines: close our read end of stdout after this many
    ///     lines, as `| head -n N` does.
    ///   - stdinDescriptor: the child's stdin instead of a pipe (a file the
    ///     caller keeps open, whose offset it shares: how much the child read).
    public init(
        _ name: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        unsetEnvironment: [String] = [],
        stdin: [UInt8] = [],
        keepStdinOpen: Bool = false,
        closeStdoutAfterLines: Int? = nil,
        currentDirectory: URL? = nil,
        stdinDescriptor: Int32? = nil
    ) throws {
        let executable = try Self.executableURL(named: name)
        let input = try Self.makePipe()
        let output = try Self.makePipe()
        let errors = try Self.makePipe()

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in unsetEnvironment { env.removeValue(forKey: key) }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        precondition(stdin.isEmpty || stdinDescriptor == nil, "stdin bytes go through a pipe, not a given descriptor")
        let given = try stdinDescriptor.map { fd -> Int32 in
            // A copy sharing the file's offset (close-on-exec: the child gets it as its fd 0).
            let copy = descriptorLock.withLock { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
            guard copy >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EBADF) }
            return copy
        }
        let childIn = FileHandle(fileDescriptor: given ?? input.read, closeOnDealloc: true)
        if given != nil { close(input.read) }
        let childOut = FileHandle(fileDescriptor: output.write, closeOnDealloc: true)
        let childErr = FileHandle(fileDescriptor: errors.write, closeOnDealloc: true)
        process.standardInput = childIn
        process.standardOutput = childOut
        process.standardError = childErr
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        do {
            try descriptorLock.withLock { try Self.withDefaultSignals { try process.run() } }
        } catch {
            for fd in [input.write, output.read, errors.read] { close(fd) }
            try? childIn.close()
            try? childOut.close()
            try? childErr.close()
            throw error
        }
        // The child has its copies; ours must go, or the drainers never see EOF.
        try? childIn.close()
        try? childOut.close()
        try? childErr.close()
        self.process = process
        self.pid = process.processIdentifier

        if !stdin.isEmpty { stdinQueue.append(stdin) }
        stdinClosing = !keepStdinOpen
        let writeEnd = input.write
        let stdoutEnd = output.read
        let stderrEnd = errors.read
        var started: [pthread_t] = []
        started.append(try spawnThread { [self] in feedLoop(writeEnd) })
        started.append(try spawnThread { [self] in drainStdout(stdoutEnd, closeAfter: closeStdoutAfterLines) })
        started.append(try spawnThread { [self] in drainStderr(stderrEnd) })
        lock.withLock { threads = started }
    }

    /// Starts `name`, feeds it `stdin`, closes stdin and waits for it to exit.
    public static func run(
        _ name: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        unsetEnvironment: [String] = [],
        stdin: [UInt8] = [],
        closeStdoutAfterLines: Int? = nil,
        timeout: Double = 60
    ) throws -> Result {
        try StageProcess(
            name, arguments: arguments, environment: environment, unsetEnvironment: unsetEnvironment,
            stdin: stdin, closeStdoutAfterLines: closeStdoutAfterLines
        ).wait(timeout: timeout)
    }

    /// Queues more bytes for the child's stdin (ignored once stdin is closing).
    public func feed(_ bytes: [UInt8]) {
        lock.withLock {
            guard !stdinClosing else { return }
            stdinQueue.append(bytes)
            lock.broadcast()
        }
    }

    /// Closes the child's stdin once everything queued is written.
    public func closeStdin() {
        lock.withLock {
            stdinClosing = true
            lock.broadcast()
        }
    }

    /// Sends a signal (SIGINT, SIGTERM, …) to the child.
    public func send(signal: Int32) {
        kill(pid, signal)
    }

    /// The complete stdout lines read so far.
    public var stdoutLinesSoFar: [String] {
        lock.withLock { Self.lines(of: stdoutBytes).lines.prefix(stdoutLineCount).map { $0 } }
    }

    /// stderr read so far, decoded as UTF-8.
    public var stderrSoFar: String {
        lock.withLock { String(decoding: stderrBytes, as: UTF8.self) }
    }

    /// Waits until stdout has at least `count` complete lines; false on timeout or EOF before that.
    @discardableResult
    public func waitForStdoutLines(_ count: Int, timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return lock.withLock {
            while stdoutLineCount < count && !stdoutDone {
                if !lock.wait(until: deadline) { break }
            }
            return stdoutLineCount >= count
        }
    }

    /// Waits for the child to exit, killing it after `timeout` seconds, and collects its output.
    ///
    /// A child that outlives the timeout is killed with SIGKILL and the result says `timedOut`.
    /// Stdin is closed first unless the caller still wants it open (then it is closed after exit).
    public func wait(timeout: Double = 60) -> Result {
        if let result = lock.withLock({ result }) { return result }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(pid, SIGKILL)
            _ = exited.wait(timeout: .now() + 30)
        }
        closeStdin()
        let pending: [pthread_t] = lock.withLock {
            let list = threads
            threads.removeAll()
            return list
        }
        for thread in pending { pthread_join(thread, nil) }
        return lock.withLock {
            let split = Self.lines(of: stdoutBytes)
            let outcome = Result(
                status: process.terminationStatus,
                exited: process.terminationReason == .exit,
                timedOut: timedOut,
                stdout: stdoutBytes,
                stdoutLines: split.lines,
                stdoutEndsWithNewline: split.endsWithNewline,
                stderr: String(decoding: stderrBytes, as: UTF8.self))
            result = outcome
            return outcome
        }
    }

    // MARK: - Threads

    private func feedLoop(_ fd: Int32) {
        defer { close(fd) }
        // A child that exits before reading all its input must not kill the
        // test runner: with SIGPIPE blocked in this thread only, the write
        // fails with EPIPE, and the pending signal dies with the thread.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        while true {
            let next: [UInt8]? = lock.withLock {
                while stdinQueue.isEmpty && !stdinClosing { lock.wait() }
                return stdinQueue.isEmpty ? nil : stdinQueue.removeFirst()
            }
            guard let next else { return }
            var written = 0
            while written < next.count {
                let count = next.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, next.count - written) }
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    // The child stopped reading (exited, or closed stdin): drop the rest.
                    lock.withLock { stdinQueue.removeAll() }
                    return
                }
            }
        }
    }

    private func drainStdout(_ fd: Int32, closeAfter limit: Int?) {
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let reachedLimit: Bool = lock.withLock {
                for byte in chunk[..<count] {
                    stdoutBytes.append(byte)
                    if byte == 10 {
                        stdoutLineCount += 1
                        if let limit, stdoutLineCount >= limit {
                            lock.broadcast()
                            return true
                        }
                    }
                }
                lock.broadcast()
                return false
            }
            if reachedLimit { break }
        }
        lock.withLock {
            stdoutDone = true
            lock.broadcast()
        }
    }

    private func drainStderr(_ fd: Int32) {
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            lock.withLock { stderrBytes.append(contentsOf: chunk[..<count]) }
        }
    }

    // MARK: - Helpers

    /// Runs `body` (a spawn) with SIGPIPE, SIGINT and SIGTERM back to their
    /// default action if this process ignores them, and with no signal blocked,
    /// since a child inherits both: under a shell, `fetch-images | head` meets
    /// the default SIGPIPE, and Ctrl-C reaches it; so must they here.
    private static func withDefaultSignals<T>(_ body: () throws -> T) rethrows -> T {
        var restored: [(Int32, sigaction)] = []
        for sig in [SIGPIPE, SIGINT, SIGTERM] {
            var current = sigaction()
            guard sigaction(sig, nil, &current) == 0 else { continue }
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                var reset = current
                reset.__sigaction_handler.sa_handler = SIG_DFL
                sigaction(sig, &reset, nil)
                restored.append((sig, current))
            }
        }
        // Nor may a child inherit a blocked signal mask: the test may run on a
        // Dispatch worker thread, which blocks SIGINT and SIGTERM, and a child
        // spawned from there would never see them.
        var none = sigset_t()
        var blocked = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &blocked)
        defer {
            pthread_sigmask(SIG_SETMASK, &blocked, nil)
            for (sig, previous) in restored {
                var previous = previous
                sigaction(sig, &previous, nil)
            }
        }
        return try body()
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        let made = descriptorLock.withLock {
            guard pipe(&fds) == 0 else { return false }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return true
        }
        guard made else { throw Failure.system("pipe", errno) }
        return (fds[0], fds[1])
    }

    private static func lines(of bytes: [UInt8]) -> (lines: [String], endsWithNewline: Bool) {
        if bytes.isEmpty { return ([], true) }
        var parts = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let endsWithNewline = bytes.last == 10
        if endsWithNewline { parts.removeLast() }
        return (parts.map { String(decoding: $0, as: UTF8.self) }, endsWithNewline)
    }
}

/// Runs `body` with a new empty folder (symlinks resolved) that is removed afterwards.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    var template = Array((NSTemporaryDirectory() + "/sposure-test-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw StageProcess.Failure.system("mkdtemp", errno)
    }
    let url = URL(fileURLWithPath: String(cString: made), isDirectory: true).resolvingSymlinksInPath()
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Small valid GIF files built in code.
public enum TestGIF {
    /// A 1×1 GIF89a (35 bytes): one white pixel.
    public static let onePixel: [UInt8] = header + imageAndTrailer

    /// A valid 1×1 GIF89a of exactly `size` bytes, padded with a comment extension
    /// whose bytes depend on `seed`, so two seeds give two different files.
    ///
    /// `size` must be 35, or 40 and more: a comment costs at least 5 bytes, as
    /// giflib rejects an empty one.
    public static func padded(toSize size: Int, seed: UInt8 = 0) -> [UInt8] {
        let base = header.count + imageAndTrailer.count
        if size == base { return onePixel }
        precondition(size >= base + 5, "no GIF of \(size) bytes this way")
        var comment: [UInt8] = [0x21, 0xFE]
        var left = size - base - 3
        var fill = seed
        while left > 0 {
            var length = min(255, left - 1)
            if left - (length + 1) == 1 { length -= 1 }
            comment.append(UInt8(length))
            for _ in 0..<length {
                // Printable, varied, never zero.
                comment.append(0x21 + fill % 90)
                fill = fill &* 31 &+ 7
            }
            left -= length + 1
        }
        comment.append(0)
        let bytes = header + comment + imageAndTrailer
        assert(bytes.count == size)
        return bytes
    }

    /// Signature, logical screen 1×1 with a two-colour global table (black, white).
    private static let header: [UInt8] = GIFBuilder(width: 1, height: 1, colors: [[0, 0, 0], [255, 255, 255]], colorResolution: 0).bytes

    /// Image descriptor, LZW data (clear, index 1, end) and the trailer.
    private static let imageAndTrailer: [UInt8] = {
        var gif = GIFBuilder(width: 1, height: 1)
        let start = gif.bytes.count
        gif.image(width: 1, height: 1, pixels: [1])
        gif.trailer()
        return Array(gif.bytes[start...])
    }()
}
