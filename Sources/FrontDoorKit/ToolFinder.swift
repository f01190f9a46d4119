import FoundationEssentials
import Glibc

/// Finds the five tools for `sposure`: `$SPOSURE_BIN` first (tests, a
/// build folder), then the folder `sposure` itself runs from (an installed
/// copy, `.build/release`), then `PATH`. The stages are found beside the
/// front door, so a `make install` copy never mixes with another build.
public struct ToolFinder: Sendable {
    /// The folders looked in, in order.
    public var folders: [String]

    /// The finder for this process: `$SPOSURE_BIN`, the folder of
    /// `/proc/self/exe`, then each folder of `$PATH`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executable: String? = ToolFinder.runningExecutable()) {
        var folders: [String] = []
        if let bin = environment["SPOSURE_BIN"], !bin.isEmpty { folders.append(bin) }
        if let executable, let slash = executable.lastIndex(of: "/") {
            folders.append(String(executable[..<slash]))
        }
        for part in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !part.isEmpty {
            folders.append(String(part))
        }
        self.folders = folders
    }

    /// A finder that looks only in `folders`.
    public init(folders: [String]) { self.folders = folders }

    /// A tool that is nowhere to be found.
    public struct Missing: Error, CustomStringConvertible, Sendable {
        /// The tool's name.
        public var tool: String
        public var description: String {
            "\(tool) is not installed beside sposure nor on PATH: run 'make install' (or 'make build' and set SPOSURE_BIN to the folder that holds it)"
        }
    }

    /// The path of `tool`: the first executable file of that name.
    public func path(of tool: String) throws(Missing) -> String {
        for folder in folders {
            let path = folder + "/" + tool
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(path, X_OK) == 0 { return path }
        }
        throw Missing(tool: tool)
    }

    /// The path of the running program, from `/proc/self/exe`.
    public static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
