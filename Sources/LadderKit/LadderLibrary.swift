import FoundationEssentials
import Glibc
import SposureKit

/// Finds ladders by name: a person's own copy in the config folder
/// (`<config>/ladders/NAME.json`) first, else the built-in one.
public struct LadderLibrary: Sendable {
    /// The config folder (see ``Folders/config(environment:)``).
    public var configFolder: String

    /// A library over `configFolder`.
    public init(configFolder: String = Folders.config()) {
        self.configFolder = configFolder
    }

    /// The folder of a person's own ladders.
    public var folder: String { configFolder + "/ladders" }

    /// Where the person's own copy of `name` is (or would be).
    public func path(of name: String) -> String { folder + "/\(name).json" }

    /// Where a ladder came from.
    public enum Source: Sendable, Equatable {
        /// Shipped with Sposure.
        case builtIn
        /// The person's file at this path.
        case file(String)
    }

    /// The ladder `name`: the person's copy when it exists (a bad one is an
    /// error, never silently replaced by the built-in), else the built-in.
    public func load(_ name: String) throws(LadderError) -> (ladder: Ladder, source: Source) {
        guard isPlainName(name) else {
            throw LadderError(file: "ladder \(RemoteText.visible(String(name.prefix(60))))",
                              problem: "a ladder's name is lower-case letters, digits, - or _ (known: \(names().joined(separator: ", ")))")
        }
        let own = path(of: name)
        if hasOwnCopy(name) {
            return (try LadderFile.read(path: own, expectedName: name), .file(own))
        }
        guard let text = BuiltInLadders.text(name) else {
            throw LadderError(file: own, problem: "no such ladder (no file, and no built-in; known: \(names().joined(separator: ", ")))")
        }
        return (try LadderFile.parse(text, file: "built-in \(name)"), .builtIn)
    }

    /// Whether the person has a file of their own for `name`. Anything
    /// there, a broken link too, is their copy: reading it says what is wrong.
    public func hasOwnCopy(_ name: String) -> Bool {
        var there = stat()
        return lstat(path(of: name), &there) == 0
    }

    /// Every ladder name: the built-ins, then the person's own that are not built-in, sorted.
    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let own = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(isPlainName)
        return BuiltInLadders.names + own.filter { !BuiltInLadders.names.contains($0) }.sorted()
    }

    /// Why a copy could not be written.
    public struct CopyError: Error, CustomStringConvertible, Sendable {
        /// The message.
        public var description: String
        /// True when the name given is at fault (no built-in of that name):
        /// a usage error (exit 64), as `score ladder NAME` says it; else the
        /// copy could not be written (exit 1).
        public var isUsage = false
    }

    /// Writes the built-in `name` to the person's folder for editing and returns the path.
    /// An existing copy is kept unless `replace`.
    @discardableResult
    public func copy(_ name: String, replace: Bool = false) throws(CopyError) -> String {
        guard let text = BuiltInLadders.text(name) else {
            throw CopyError(description: "\(name): no built-in ladder of that name (built-in: \(BuiltInLadders.names.joined(separator: ", ")))",
                            isUsage: true)
        }
        let target = path(of: name)
        if FileManager.default.fileExists(atPath: target) && !replace {
            throw CopyError(description: "\(target) already exists (edit it, or give --replace to start again from the built-in)")
        }
        do {
            try Folders.make(folder)
            try writeAtomically(Array(text.utf8), to: target, as: .program, mode: 0o644)
        } catch {
            throw CopyError(description: "cannot write \(target): \(error)")
        }
        return target
    }

    private func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 40
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }
    }
}
