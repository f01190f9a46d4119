import Glibc

/// A file of records, one JSON object a line, that only grows: the history,
/// the GIF ratings. Appends are whole or not at all, under an exclusive
/// `flock`, with one write(2), synced, so concurrent writers never interleave
/// and a crash leaves at most a torn last line, which the next append removes
/// (keeping it beside the log, in `.torn`).
public struct RecordLog: Sendable {
    /// The file's path.
    public let path: String
    /// Whose file it is (``FileOwner``): a link at the program's own log is
    /// refused, never appended through; one a person named is followed.
    public let owner: FileOwner

    /// The log at `path`, whose file `owner`'s.
    public init(path: String, owner: FileOwner) {
        self.path = path
        self.owner = owner
    }

    /// Appends `lines` (whole records, each with its newline), creating the
    /// file (0600) and its folders (0700) as needed. A torn last line (no
    /// newline, not a record) is removed first; a whole record without its
    /// newline gets one. Returns the bytes of a torn line removed (0: none).
    @discardableResult
    public func append(lines: [UInt8]) throws(FileError) -> Int {
        try append(lines: lines) { (_: Int32) throws(FileError) in }
    }

    /// ``append(lines:)``, then `whileLocked` with the log's descriptor, still
    /// under the exclusive lock: a log that is trimmed (rewritten beside and
    /// renamed over) is trimmed there, so no append can fall between the
    /// read and the rename and be lost.
    @discardableResult
    public func append(lines: [UInt8], whileLocked: (Int32) throws(FileError) -> Void) throws(FileError) -> Int {
        let folder = Paths.parent(path).isEmpty ? "." : Paths.parent(path)
        let createdFolder = try Folders.make(folder)
        let fd = try openLocked()
        defer { close(fd) }
        let removed = try append(lines, to: fd, folder: folder, createdFolder: createdFolder)
        try whileLocked(fd)
        return removed
    }

    /// The log opened and locked (exclusive). The file locked must still be
    /// the one at the path: one renamed over it meanwhile (a trim) is opened again.
    private func openLocked() throws(FileError) -> Int32 {
        while true {
            // Only a regular file: a FIFO would hang the open, and a device (/dev/zero) is no log.
            let fd: Int32
            switch openRegularFile(path, O_RDWR | O_APPEND | O_CREAT | (owner == .program ? O_NOFOLLOW : 0)) {
            case .success(let opened): fd = opened.fd
            case .failure(let failure): throw failure
            }
            do { try Self.lock(fd, LOCK_EX, path: path) } catch {
                close(fd)
                throw error
            }
            var locked = stat(), named = stat()
            if fstat(fd, &locked) == 0, stat(path, &named) == 0, locked.st_ino == named.st_ino, locked.st_dev == named.st_dev {
                return fd
            }
            close(fd)
        }
    }

    private func append(_ lines: [UInt8], to fd: Int32, folder: String, createdFolder: Bool) throws(FileError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError("read", path: path, code: errno) }
        var size = Int(info.st_size)
        let wasEmpty = size == 0
        var bytes = lines
        var removed = 0
        if size > 0, let tail = try unterminatedTail(fd, size: size) {
            if (try? tail.bytes.withUnsafeBytes { try JSONRecord.parse($0) }) != nil {
                bytes.insert(0x0A, at: 0)
            } else {
                // Kept beside the log before it goes: it may be a hand edit
                // gone wrong rather than an interrupted write.
                try Self.keepTorn(tail.bytes, of: path)
                guard ftruncate(fd, off_t(tail.offset)) == 0 else { throw FileError("write", path: path, code: errno) }
                removed = size - tail.offset
                size = tail.offset
            }
        }
        let written: Int = bytes.withUnsafeBytes { raw in
            while true {
                let n = write(fd, raw.baseAddress, raw.count)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
        if written != bytes.count {
            let code = written < 0 ? errno : EIO  // a short write: the disk is full, or the file too big
            // Whole or not at all: take back a short write.
            if written > 0 { _ = ftruncate(fd, off_t(size)) }
            throw FileError("write", path: path, code: code)
        }
        guard fsync(fd) == 0 else { throw FileError("sync", path: path, code: errno) }
        if wasEmpty || createdFolder {
            // A new file's name is durable only once its folder is synced too.
            let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folderFD >= 0 {
                _ = fsync(folderFD)
                close(folderFD)
            }
        }
        return removed
    }

    /// Where a torn last line is kept when an append removes it.
    public static func tornPath(of path: String) -> String { path + ".torn" }

    /// Appends a torn line's bytes (and a newline) to ``tornPath(of:)``.
    static func keepTorn(_ bytes: [UInt8], of path: String) throws(FileError) {
        let torn = tornPath(of: path)
        let fd: Int32
        switch openRegularFile(torn, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW) {
        case .success(let opened): fd = opened.fd
        case .failure(let failure): throw failure
        }
        defer { close(fd) }
        if let code = writeAll(fd, bytes + [0x0A]) { throw FileError("write", path: torn, code: code) }
    }

    /// Takes `operation` (LOCK_SH, LOCK_EX) on `fd`, again after a signal.
    public static func lock(_ fd: Int32, _ operation: Int32, path: String) throws(FileError) {
        while flock(fd, operation) != 0 {
            if errno == EINTR { continue }
            throw FileError("lock", path: path, code: errno)
        }
    }

    /// The bytes after the last newline and where they start, when the file does not end with one.
    private func unterminatedTail(_ fd: Int32, size: Int) throws(FileError) -> (offset: Int, bytes: [UInt8])? {
        var tail: [UInt8] = []
        var end = size
        let step = 4096
        while end > 0 {
            let start = max(0, end - step)
            var chunk = [UInt8](repeating: 0, count: end - start)
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
            guard n == chunk.count else { throw FileError("read", path: path, code: n < 0 ? errno : EIO) }
            if end == size && chunk.last == 0x0A { return nil }
            if let newline = chunk.lastIndex(of: 0x0A) {
                return (start + newline + 1, Array(chunk[(newline + 1)...]) + tail)
            }
            tail = chunk + tail
            end = start
        }
        return (0, tail)
    }
}
