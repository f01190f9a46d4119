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

/// Opens the regular file at `path` with `flags` (close-on-exec, and never
/// the controlling terminal), or fails without having blocked or acted: a
/// path that is not a regular file is not opened (a FIFO would block the
/// open until a writer came, a device could act), and the open itself is
/// O_NONBLOCK and checked again with fstat, should the path change in
/// between, then made blocking. Returns the descriptor and the file's status.
public func openRegularFile(_ path: String, _ flags: Int32, mode: mode_t = 0o600) -> Result<(fd: Int32, status: stat), FileError> {
    var named = stat()
    if stat(path, &named) == 0 && (named.st_mode & S_IFMT) != S_IFREG {
        return .failure(FileError("open", path: path, code: EINVAL, reason: "not a regular file"))
    }
    let fd = open(path, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, mode)
    guard fd >= 0 else {
        let code = errno
        if code == ELOOP && flags & O_NOFOLLOW != 0 {
            return .failure(FileError("open", path: path, code: code, reason: "a link, and the program's own files are never opened through one (left as it is)"))
        }
        return .failure(FileError("open", path: path, code: code))
    }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
        let code = errno
        close(fd)
        return .failure(FileError("open", path: path, code: code))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
        close(fd)
        return .failure(FileError("open", path: path, code: EINVAL, reason: "not a regular file"))
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return .success((fd, status))
}

/// The bytes of the regular file at `path`, at most `maxBytes` of them
/// (``openRegularFile(_:_:mode:)``: a FIFO or a device is refused unopened).
/// A link is followed in a file a person named, never in one of the
/// program's own (a planted link must not send another file's bytes to an
/// API as Klipy's customer id).
public func readFile(_ path: String, maxBytes: Int, owner: FileOwner = .person) throws(FileReadError) -> [UInt8] {
    func fail(_ reason: String, missing: Bool = false) -> FileReadError {
        FileReadError(path: path, reason: reason, isMissing: missing)
    }
    var named = stat()
    if stat(path, &named) == 0 && (named.st_mode & S_IFMT) == S_IFDIR { throw fail("is a folder, not a file") }
    let fd: Int32
    let status: stat
    switch openRegularFile(path, O_RDONLY | (owner == .program ? O_NOFOLLOW : 0)) {
    case .success(let opened): (fd, status) = opened
    case .failure(let failure):
        var link = stat()
        if failure.code == ELOOP && owner == .program { throw fail("a link, and the program's own files are never read through one") }
        let missing = failure.code == ENOENT && lstat(path, &link) != 0
        throw fail(failure.code == ENOENT && !missing ? "\(failure.why) (a link to nothing)" : failure.why, missing: missing)
    }
    defer { close(fd) }
    guard Int(status.st_size) <= maxBytes else {
        throw fail("\(Int(status.st_size)) bytes, more than the \(maxBytes / 1024) KiB such a file may have")
    }
    guard let bytes = readAll(fd) else { throw fail(String(cString: strerror(errno))) }
    guard bytes.count <= maxBytes else {
        throw fail("more than the \(maxBytes / 1024) KiB such a file may have")
    }
    return bytes
}
