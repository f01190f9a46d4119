#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `bytes` to `fd`: again after a signal (EINTR) and, on a
/// non-blocking descriptor, once it can take more (EAGAIN). Returns the errno
/// of a failure, nil when everything was written.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, base + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            return errno
        }
        if n == 0 { return EIO }
        offset += n
    }
    return nil
}

/// Writes all of `bytes` to `fd` (see ``writeAll(_:_:)-(Int32,UnsafeRawBufferPointer)``).
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
}

/// Writes all of `text`, as UTF-8, to `fd`.
public func writeAll(_ fd: Int32, _ text: String) -> Int32? {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
}

/// A file that could not be written whole: what was being done, where, and errno.
public struct FileWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed: "create", "write", "sync" or "rename into".
    public var doing: String
    /// The file.
    public var path: String
    /// The errno.
    public var code: Int32
    /// Why, when it is not an errno's words.
    public var reason: String?

    /// An error of `doing` on `path` with errno `code`, or `reason`.
    public init(_ doing: String, path: String, code: Int32, reason: String? = nil) {
        self.doing = doing
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// "cannot write PATH: reason".
    public var description: String { "cannot \(doing) \(path): \(reason ?? String(cString: strerror(code)))" }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it (unless not
/// `durable`: frames a test or a script reads back at once) and renames it
/// into place, so a reader sees the old file or the new one, never half of
/// one; the temporary file is removed on failure.
///
/// A link is followed (the file it names is replaced, not the link), a
/// folder refused, and a path that is not a file (`/dev/stdout`, a FIFO, a
/// terminal) written to as it is: renaming over it would replace a device
/// node with a file.
public func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644, durable: Bool = true) throws(FileWriteError) {
    var target = path
    var info = stat()
    if stat(path, &info) == 0 {
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw FileWriteError("write", path: path, code: EISDIR, reason: "is a folder") }
        if (info.st_mode & S_IFMT) != S_IFREG {
            // Without blocking: a FIFO nobody reads is ENXIO, not a hang.
            let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw FileWriteError("write", path: path, code: errno) }
            defer { close(fd) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            if let code = writeAll(fd, bytes) { throw FileWriteError("write", path: path, code: code) }
            return
        }
        var link = stat()
        if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
    } else if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
        throw FileWriteError("write", path: path, code: ENOENT, reason: "a link to nothing")
    }
    let temporary = target + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw FileWriteError("write", path: path, code: errno) }
    var failure: FileWriteError?
    if let code = writeAll(fd, bytes) {
        failure = FileWriteError("write", path: path, code: code)
    } else if durable && fsync(fd) != 0 {
        failure = FileWriteError("sync", path: path, code: errno)
    }
    close(fd)
    if failure == nil && rename(temporary, target) != 0 {
        failure = FileWriteError("rename into", path: path, code: errno)
    }
    if let failure {
        unlink(temporary)
        throw failure
    }
}
