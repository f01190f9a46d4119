import FoundationEssentials
import Glibc

/// A round's temporary folder (`$TMPDIR/sposure-NAME.XXXXXX`), removed with
/// all it holds unless kept.
public final class WorkFolder {
    /// The folder's path.
    public let path: String
    /// Leaves the folder in place (`sposure demo --keep`).
    public var keep = false

    /// Makes a new folder for `name` (play, demo, replay).
    public init(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(RoundFailure) {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/sposure-\(name).XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RoundFailure("cannot make a work folder in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit {
        if !keep { try? FileManager.default.removeItem(atPath: path) }
    }
}
