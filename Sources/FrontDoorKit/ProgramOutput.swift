import FoundationEssentials
import Glibc
import SposureKit

/// Runs a short program to its end and keeps what it wrote: for `sposure
/// doctor`, which asks each tool (`--version`, the libraries it loads, one
/// call with a key, the terminal's answers) rather than reaching into it.
///
/// stdout and stderr are read together (poll), so a program that fills one
/// pipe while the other is read never hangs.
public struct ProgramOutput: Sendable {
    /// The exit status as a shell gives it (128 + N for signal N; 127: not started).
    public var status: Int32
    /// What it wrote on stdout and on stderr.
    public var stdout: String
    public var stderr: String

    /// Runs `arguments` (`arguments[0]`: a path, or a name on `PATH`) with the
    /// environment changed by `environment` (nil removes a variable), stdin
    /// from /dev/null, or a pipe as the first program's stdout into the second.
    public static func run(_ arguments: [String], environment: [String: String?] = [:],
                           into next: [String]? = nil) -> ProgramOutput {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        guard let out = StagePipeline.makePipe(), let err = StagePipeline.makePipe(),
              let link = next == nil ? [-1, -1] : StagePipeline.makePipe() else {
            return ProgramOutput(status: 127, stdout: "", stderr: String(cString: strerror(errno)))
        }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        var pids: [pid_t] = []
        if let next {
            pids.append(spawn(arguments, stdin: null, stdout: link[1], stderr: err[1], envp: envp))
            pids.append(spawn(next, stdin: link[0], stdout: out[1], stderr: err[1], envp: envp))
            close(link[0])
            close(link[1])
        } else {
            pids.append(spawn(arguments, stdin: null, stdout: out[1], stderr: err[1], envp: envp))
        }
        close(null)
        close(out[1])
        close(err[1])
        let (stdout, stderr) = drain(out[0], err[0])
        var statuses: [Int32] = []
        for pid in pids {
            guard pid > 0 else { statuses.append(127); continue }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7F
            statuses.append(signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
        }
        return ProgramOutput(status: statuses.last { $0 != 0 } ?? 0,
                             stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    private static func spawn(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32,
                              envp: [UnsafeMutablePointer<CChar>?]) -> pid_t {
        let started = ProgramSpawn.start(arguments, descriptors: [(stdin, 0), (stdout, 1), (stderr, 2)], environment: envp)
        return started.status == 0 ? started.pid : -1
    }

    /// Reads both descriptors to their ends, together, and closes them.
    private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var fds = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var data: [[UInt8]] = [[], []]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = read(fds[index].fd, &buffer, buffer.count)
                if count > 0 {
                    data[index] += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    close(fds[index].fd)
                    fds[index].fd = -1
                    open -= 1
                }
            }
        }
        return (data[0], data[1])
    }
}
