import FoundationEssentials
import Glibc
import SposureKit

/// Runs a round's programs joined by pipes, as a shell runs `a | b | c`,
/// and gives each one's exit status as a shell would (128 + N for signal N).
///
/// ```
///  input ─▶ [0] ─pipe─▶ [1] ─pipe─▶ … ─pipe─▶ [n-1] ─▶ output
///            all in sposure's own process group (the terminal's job):
///            Ctrl-C, Ctrl-Z and a hang-up reach every program at once
///
///  signal thread (SignalForwarder): SIGINT, SIGTERM or SIGHUP sent to
///  sposure by a process (kill PID) is passed on to each program still
///  running; one the terminal sent has reached them already
///  main thread: spawn all, then waitpid each in order
/// ```
///
/// The programs' stdin, stdout and stderr are the three given; every other
/// descriptor is closed in them (the pipes are made close-on-exec).
public enum StagePipeline {
    /// Where the first program reads from.
    public enum Input: Sendable, Equatable {
        /// sposure's own stdin.
        case inherit
        /// A file, opened for reading.
        case file(String)
        /// `/dev/null`.
        case null
    }

    /// Where the last program writes to.
    public enum Output: Sendable, Equatable {
        /// sposure's own stdout.
        case inherit
        /// A new file: made by the pipeline, never through a link and never
        /// over a file that is there (``StageCommand/creates`` likewise).
        case file(String)
        /// `/dev/null`.
        case null
    }

    /// A pipeline that could not be set up: the input or output file, or a pipe.
    public struct SetupError: Error, CustomStringConvertible, Sendable {
        /// What to say.
        public var description: String
    }

    /// Runs `commands` from `input` to `output` and waits for all of them;
    /// returns their statuses in order. A program that cannot be started is
    /// said on stderr by `diagnostics` and counts as exit 127, as in a shell.
    public static func run(_ commands: [StageCommand], input: Input = .inherit, output: Output = .inherit,
                           diagnostics: Diagnostics) throws(SetupError) -> [Int32] {
        guard !commands.isEmpty else { return [] }
        SignalForwarder.install()
        var first: Int32 = 0, last: Int32 = 1
        switch input {
        case .inherit: break
        case .null: first = try openFile("/dev/null", O_RDONLY)
        case .file(let path): first = try openFile(path, O_RDONLY)
        }
        var created: [Int32] = []
        defer {
            if first != 0 { close(first) }
            if last != 1 { close(last) }
            for fd in created { close(fd) }
        }
        switch output {
        case .inherit: break
        case .null: last = try openFile("/dev/null", O_WRONLY)
        case .file(let path): last = try openFile(path, newFile)
        }
        for case let path? in commands.map(\.creates) { created.append(try openFile(path, newFile)) }
        var files = created.makeIterator()

        var pids: [pid_t?] = []
        var reading = first
        for (index, command) in commands.enumerated() {
            var writing = last
            var nextReading: Int32 = -1
            if index < commands.count - 1 {
                guard let ends = makePipe() else {
                    let reason = String(cString: strerror(errno))
                    if reading != first { close(reading) }
                    SignalForwarder.forward(SIGTERM)
                    _ = pids.compactMap { $0 }.map(waitFor)
                    throw SetupError(description: "cannot make a pipe: \(reason)")
                }
                nextReading = ends[0]
                writing = ends[1]
                // One page between stages, not 64 KiB: a stage reading only as
                // it needs (gif-play) holds the stages before it, a tee that
                // saves the stream among them, a few records away (issue 29 #10).
                _ = fcntl(writing, Self.setPipeSize, Int32(getpagesize()))
            }
            let file = command.creates == nil ? nil : files.next()
            pids.append(spawn(command, stdin: reading, stdout: writing, file: file, diagnostics: diagnostics))
            if reading != first { close(reading) }
            if writing != last { close(writing) }
            reading = nextReading
        }
        return pids.map { $0.map(waitFor) ?? 127 }
    }

    /// A pipe whose two ends are closed in the programs started (each gets
    /// its end as fd 0 or 1 by dup2, which clears the flag on the copy).
    static func makePipe() -> [Int32]? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    /// `fcntl`'s F_SETPIPE_SZ (Linux), which Glibc's module does not name.
    static let setPipeSize: Int32 = 1031

    /// How a file the pipeline writes is opened: made new, never through a link.
    private static let newFile = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW

    private static func openFile(_ path: String, _ flags: Int32) throws(SetupError) -> Int32 {
        let fd = open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SetupError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        return fd
    }

    /// Starts `command` with `stdin` and `stdout` as fds 0 and 1, and `file`
    /// (the one it ``StageCommand/creates``) as fd 3; nil when it cannot be.
    private static func spawn(_ command: StageCommand, stdin: Int32, stdout: Int32, file: Int32?,
                              diagnostics: Diagnostics) -> pid_t? {
        // fd 3 last: stdin or stdout may be fd 3 until they are copied. The
        // file is dup2'd even when it is fd 3 already: that clears its
        // close-on-exec flag (POSIX 2024; glibc since 2.29).
        let descriptors = [(stdin, Int32(0)), (stdout, 1)].filter { $0.0 != $0.1 } + (file.map { [($0, Int32(3))] } ?? [])
        let blocked = command.endsWithItsInput ? SignalForwarder.forwarded : []
        let (pid, status) = ProgramSpawn.start(command.arguments, descriptors: descriptors, blocked: blocked, environment: environ)
        guard status == 0 else {
            diagnostics.error("cannot start \(command.arguments[0]): \(String(cString: strerror(status)))")
            return nil
        }
        SignalForwarder.started(pid)
        return pid
    }

    /// Waits for `pid`; its status as a shell gives it.
    private static func waitFor(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { SignalForwarder.ended(pid); return 127 }
        }
        SignalForwarder.ended(pid)
        // WIFEXITED / WTERMSIG / WEXITSTATUS, which Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
