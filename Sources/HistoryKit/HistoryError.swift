import LadderKit
import FoundationEssentials
import Glibc

/// A failure to read or write the history file, with the system's errno.
public struct HistoryError: Error, CustomStringConvertible, Sendable {
    /// What was being done: `create`, `open`, `lock`, `read`, `write`, `sync`.
    public var operation: String
    /// The file or folder.
    public var path: String
    /// The errno (0 when the failure was not a system call's, such as a short write).
    public var code: Int32
    /// More about a failure that has no errno.
    public var detail: String?

    /// A failure of `operation` on `path`.
    public init(_ operation: String, path: String, code: Int32, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
    }

    public var description: String {
        let why = detail ?? String(cString: strerror(code))
        return "history: cannot \(operation) \(path): \(why)"
    }
}
