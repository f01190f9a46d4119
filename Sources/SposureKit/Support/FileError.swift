#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call on a file that failed: what was being done, where, and the
/// errno, with words of its own where the errno's would mislead ("is a
/// folder", "not a regular file"). The one error of this kind: file reading
/// and writing, the history, the logs and the caches all throw it.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed: "create", "open", "read", "write", "sync", "lock", "rename into"…
    public var doing: String
    /// The file or folder.
    public var path: String
    /// The errno (EIO for a short write, EINVAL for a path that is not a regular file).
    public var code: Int32
    /// Why, when it is not the errno's words.
    public var reason: String?
    /// Whose file, said first ("history: cannot …"); nil: nothing said first.
    public var subject: String?

    /// An error of `doing` on `path` with errno `code`, or `reason`.
    public init(_ doing: String, path: String, code: Int32, reason: String? = nil, subject: String? = nil) {
        self.doing = doing
        self.path = path
        self.code = code
        self.reason = reason
        self.subject = subject
    }

    /// The words of why: ``reason``, else the errno's.
    public var why: String { reason ?? String(cString: strerror(code)) }

    /// "[subject: ]cannot DOING PATH: why".
    public var description: String { (subject.map { "\($0): " } ?? "") + "cannot \(doing) \(path): \(why)" }

    /// This error, said as `subject`'s ("history: cannot …").
    public func about(_ subject: String) -> FileError {
        var copy = self
        copy.subject = subject
        return copy
    }
}
