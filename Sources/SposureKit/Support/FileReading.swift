import Glibc

/// Everything left to read from `fd` (again after EINTR); nil on a read error,
/// with `errno` set.
public func readAll(_ fd: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if n == 0 { return bytes }
        bytes += chunk[..<n]
    }
}

/// Why a small file a person wrote (a ladder, a script) could not be read.
public struct FileReadError: Error, CustomStringConvertible, Sendable {
    /// The file.
    public var path: String
    /// Why, in words ("No such file or directory", "not a regular file").
    public var reason: String
    /// Nothing is there (not even a broken link).
    public var isMissing: Bool
    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// The bytes of the regular file at `path`, at most `maxBytes` of them.
/// Opened without blocking and checked to be a regular file first: a FIFO
/// would block the open until a writer came, and a device could act.
public func readFile(_ path: String, maxBytes: Int) throws(FileReadError) -> [UInt8] {
    func fail(_ reason: String, missing: Bool = false) -> FileReadError {
        FileReadError(path: path, reason: reason, isMissing: missing)
    }
    var named = stat()
    if stat(path, &named) == 0 && (named.st_mode & S_IFMT) != S_IFREG {
        throw fail((named.st_mode & S_IFMT) == S_IFDIR ? "is a folder, not a file" : "not a regular file")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else {
        let code = errno
        var link = stat()
        let missing = code == ENOENT && lstat(path, &link) != 0
        let reason = String(cString: strerror(code))
        throw fail(code == ENOENT && !missing ? "\(reason) (a link to nothing)" : reason, missing: missing)
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw fail(String(cString: strerror(errno))) }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw fail("not a regular file") }
    guard Int(status.st_size) <= maxBytes else {
        throw fail("\(Int(status.st_size)) bytes, more than the \(maxBytes / 1024) KiB such a file may have")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    guard let bytes = readAll(fd) else { throw fail(String(cString: strerror(errno))) }
    guard bytes.count <= maxBytes else {
        throw fail("more than the \(maxBytes / 1024) KiB such a file may have")
    }
    return bytes
}
