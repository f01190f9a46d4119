import FoundationEssentials
import Glibc

/// A round's temporary folder (`$TMPDIR/sposure-NAME.XXXXXX`), which the
/// round removes with all it holds (`defer { work.remove() }`: an explicit
/// end, as an object's lifetime may end at its last use, before the round's).
public struct WorkFolder: Sendable {
    /// The folder's path.
    public let path: String

    /// Makes a new folder for `name` (play, demo, replay).
    public init(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(RoundFailure) {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/sposure-\(name).XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RoundFailure("cannot make a work folder in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    /// Removes the folder and all it holds.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
