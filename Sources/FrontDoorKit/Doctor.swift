import FoundationEssentials
import Glibc
import GiphyKit
import HistoryKit
import SposureKit

/// `sposure doctor`: checks that everything a round needs is in order, one
/// line each, ✓ or ✗ with the fix. It asks the tools themselves (their
/// version, the libraries they load, one call with each key, the terminal's
/// answers through `gif-play probe`) rather than reaching into them, so what
/// it says is what a round will meet.
public struct Doctor: Sendable {
    /// Where the tools are.
    public var tools: ToolFinder
    /// The version every tool must answer.
    public var version: String
    /// The environment (keys, folders, terminal).
    public var environment: [String: String]
    /// Whether to spend one call on each key that is set.
    public var callKeys = true

    /// The stages a round runs.
    public static let stages = ["giphy-pages", "fetch-images", "gif-play", "score"]
    /// The C libraries the stages load, by the start of their file names.
    public static let libraries = [("libcurl", "libcurl4"), ("libgif", "libgif7"), ("libjansson", "libjansson4"),
                                   ("libcrypto", "libssl3")]

    /// A doctor for tools of `version`.
    public init(version: String, tools: ToolFinder = ToolFinder(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.version = version
        self.tools = tools
        self.environment = environment
    }

    /// Every check, in order; `progress` hears each area as it starts.
    public func run(progress: (String) -> Void = { _ in }) -> [DoctorCheck] {
        progress("tools")
        var checks = toolChecks()
        progress("libraries")
        checks += libraryChecks()
        progress("keys")
        checks += keyChecks()
        progress("folders")
        checks += folderChecks()
        progress("terminal")
        checks += terminalChecks()
        return checks
    }

    /// Whether a round can be played: no check failed.
    public static func playable(_ checks: [DoctorCheck]) -> Bool { !checks.contains { $0.mark == .fail } }

    func toolChecks() -> [DoctorCheck] {
        Self.stages.map { tool in
            guard let path = try? tools.path(of: tool) else {
                return DoctorCheck("tools", .fail, "\(tool): not found beside sposure nor on PATH",
                                   fix: "make install PREFIX=~/.local in a clone (or set SPOSURE_BIN to the folder of the tools)")
            }
            let answer = ProgramOutput.run([path, "--version"])
            let said = answer.stdout.trimmingWhitespaceAndNewlines()
            guard answer.status == 0, said == version else {
                let what = answer.status == 0 ? "answers --version \(said)" : "does not start (exit \(answer.status)): \(Self.firstLine(answer.stderr))"
                return DoctorCheck("tools", .fail, "\(tool) (\(path)) \(what), not \(version)",
                                   fix: "install the five tools from one build: make install")
            }
            return DoctorCheck("tools", .ok, "\(tool) \(version)  \(path)")
        }
    }

    func libraryChecks() -> [DoctorCheck] {
        var found: [String: String] = [:], missing: Set<String> = []
        for tool in Self.stages {
            guard let path = try? tools.path(of: tool) else { continue }
            // ld.so lists what it would load and exits, as ldd does.
            let trace = ProgramOutput.run([path], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
            for line in trace.stdout.split(separator: "\n") {
                let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count >= 3, parts[1] == "=>" else { continue }
                let name = String(parts[0])
                if parts[2] == "not" { missing.insert(name); continue }
                found[name] = Self.resolved(String(parts[2]))
            }
        }
        var checks: [DoctorCheck] = []
        for (prefix, package) in Self.libraries {
            let names = found.keys.filter { $0.hasPrefix(prefix + ".") || $0.hasPrefix(prefix + "-") }.sorted()
            if let name = names.first, let path = found[name] {
                checks.append(DoctorCheck("libraries", .ok, "\(prefix)  \(path)"))
            } else if let name = missing.first(where: { $0.hasPrefix(prefix) }) {
                checks.append(DoctorCheck("libraries", .fail, "\(prefix): \(name) not found",
                                          fix: "apt-get install \(package) (make deps in a clone installs the -dev packages)"))
            }
        }
        for name in missing.sorted() where !Self.libraries.contains(where: { name.hasPrefix($0.0) }) {
            checks.append(DoctorCheck("libraries", .fail, "\(name) not found", fix: "install the package that has \(name)"))
        }
        return checks
    }

    func folderChecks() -> [DoctorCheck] {
        let history = HistoryFile.named(nil, environment: environment)
        var checks = [
            folderCheck("data", Folders.data(environment: environment), holds: "history, ratings, call allowances",
                        made: "at the first round"),
            folderCheck("cache", Folders.cache(environment: environment), holds: "GIFs and API answers",
                        made: "at the first round"),
            folderCheck("config", Folders.config(environment: environment), holds: "your own ladders",
                        made: "by sposure ladder NAME --copy", needed: false),
        ]
        do {
            let contents = try history.scan { (_: Int, _: HistoryEntry) -> Void in }
            let skipped = contents.problemCount
            checks.append(DoctorCheck("folders", skipped == 0 ? .ok : .info,
                                      "history \(history.path): readable"
                                      + (skipped == 0 ? "" : ", \(skipped) line\(skipped == 1 ? "" : "s") skipped"),
                                      fix: skipped == 0 ? nil : "score history says which lines and why"))
        } catch {
            checks.append(DoctorCheck("folders", .fail, "history: \(error)", fix: "make the file readable and writable, or move it away"))
        }
        return checks
    }

    /// The folder `path`: writable (or makeable), and how much it holds.
    func folderCheck(_ name: String, _ path: String, holds: String, made: String, needed: Bool = true) -> DoctorCheck {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                return DoctorCheck("folders", .fail, "\(name) \(path): not a folder", fix: "move the file away")
            }
            guard access(path, W_OK | X_OK) == 0 else {
                return DoctorCheck("folders", needed ? .fail : .info, "\(name) \(path): not writable",
                                   fix: "chmod u+w \(path), or set SPOSURE_\(name.uppercased()) to another folder")
            }
            let (bytes, files) = Self.size(of: path)
            return DoctorCheck("folders", .ok, "\(name) \(path): writable, \(ByteCount.format(bytes)) in \(files) file\(files == 1 ? "" : "s") (\(holds))")
        }
        var parent = Paths.parent(path)
        while !parent.isEmpty && parent != "/" && stat(parent, &info) != 0 { parent = Paths.parent(parent) }
        if parent.isEmpty { parent = "/" }
        guard access(parent, W_OK | X_OK) == 0 else {
            return DoctorCheck("folders", needed ? .fail : .info, "\(name) \(path): missing, and \(parent) is not writable",
                               fix: "set SPOSURE_\(name.uppercased()) to a folder you can write")
        }
        return DoctorCheck("folders", .ok, "\(name) \(path): not made yet, made \(made) (\(holds))")
    }

    /// The bytes and files under `path` (links not followed).
    static func size(of path: String) -> (bytes: Int, files: Int) {
        guard let dir = opendir(path) else { return (0, 0) }
        defer { closedir(dir) }
        var bytes = 0, files = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != "." && name != ".." else { continue }
            let child = path + "/" + name
            var info = stat()
            guard lstat(child, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                let inner = size(of: child)
                bytes += inner.bytes
                files += inner.files
            } else {
                bytes += Int(info.st_size)
                files += 1
            }
        }
        return (bytes, files)
    }

    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n").first ?? "")
    }
}
