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

/// Whose file a write replaces: what a link, a device or a FIFO at the path
/// means depends on it, so every caller of ``writeAtomically(_:to:as:mode:durable:)``
/// says which it writes.
public enum FileOwner: Sendable {
    /// A file the program keeps under a name of its own (the API cache, the
    /// call budget, Klipy's customer id, the notice's acceptance, a copied
    /// ladder): a link there is replaced, never written through (a planted
    /// link must not turn an API answer into `/etc/passwd`), and anything
    /// but a regular file or a link (a folder, a FIFO, a device) is refused.
    case program
    /// A path a person named on the command line (`--plot FILE`, `--export
    /// FILE`): a link is followed and the file it names replaced, and a device
    /// or a FIFO (`/dev/stdout`) is written to in place.
    case person
}

/// Writes `bytes` to a temporary file beside `path`, syncs it (unless not
/// `durable`: frames a test or a script reads back at once) and renames it
/// into place, so a reader sees the old file or the new one, never half of
/// one; the temporary file is removed on failure.
///
/// `owner` decides what happens to what is at `path` (``FileOwner``): the
/// program's own files have a link replaced and a device refused; a path a
/// person named has a link followed and a device written in place. A folder
/// is refused either way.
public func writeAtomically(_ bytes: [UInt8], to path: String, as owner: FileOwner, mode: mode_t = 0o644, durable: Bool = true) throws(FileError) {
    var target = path
    var info = stat()
    switch owner {
    case .program:
        if lstat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            guard type != S_IFDIR else { throw FileError("write", path: path, code: EISDIR, reason: "is a folder") }
            guard type == S_IFREG || type == S_IFLNK else {
                throw FileError("write", path: path, code: EINVAL, reason: "not a regular file (left as it is)")
            }
        }
    case .person:
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw FileError("write", path: path, code: EISDIR, reason: "is a folder") }
            if (info.st_mode & S_IFMT) != S_IFREG {
                // Without blocking: a FIFO nobody reads is ENXIO, not a hang.
                let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
                guard fd >= 0 else { throw FileError("write", path: path, code: errno) }
                defer { close(fd) }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                if let code = writeAll(fd, bytes) { throw FileError("write", path: path, code: code) }
                return
            }
            var link = stat()
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        } else if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
            throw FileError("write", path: path, code: ENOENT, reason: "a link to nothing")
        }
    }
    let (fd, temporary) = try createTemporary(beside: target, mode: mode, reportedAs: path)
    var failure: FileError?
    if let code = writeAll(fd, bytes) {
        failure = FileError("write", path: path, code: code)
    } else if durable && fsync(fd) != 0 {
        failure = FileError("sync", path: path, code: errno)
    }
    close(fd)
    // rename(2) replaces a link at `target` itself, never the file it names.
    if failure == nil && rename(temporary, target) != 0 {
        failure = FileError("rename into", path: path, code: errno)
    }
    if let failure {
        unlink(temporary)
        throw failure
    }
}

private let temporaryCounter = Lock()
nonisolated(unsafe) private var temporaryCount = 0

/// A new file beside `target`, made by this call alone (`O_EXCL`, never
/// through a link planted at its name): `TARGET.tmp-PID-N`.
private func createTemporary(beside target: String, mode: mode_t, reportedAs path: String) throws(FileError) -> (Int32, String) {
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    let count = temporaryCounter.withLock {
        temporaryCount += 1
        return temporaryCount
    }
    let temporary = target + ".tmp-\(getpid())-\(count)"
    for _ in 0..<2 {
        let fd = open(temporary, flags, mode)
        if fd >= 0 { return (fd, temporary) }
        // A leftover of a process long gone that had this pid (or a planted
        // name): removed (a link goes, never its file), then tried again.
        guard errno == EEXIST else { throw FileError("write", path: path, code: errno) }
        unlink(temporary)
    }
    throw FileError("write", path: path, code: EEXIST)
}
