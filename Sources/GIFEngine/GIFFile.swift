#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a GIF file into memory, refusing one larger than a limit before
/// reading it.
enum GIFFile {
    /// The file at `path`, read straight into a ``ByteSource`` (no copy on the way).
    static func source(path: String, maxBytes: Int) throws(GIFError) -> ByteSource {
        // Only a regular file is opened: opening a FIFO blocks until a writer
        // comes, maybe forever, and opening a device can act (a watchdog
        // arms, a tty becomes the controlling terminal). Opened without
        // blocking and checked again, should it change in between.
        var named = stat()
        if stat(path, &named) == 0 && (named.st_mode & S_IFMT) != S_IFREG {
            throw GIFError(.unreadable, "cannot read \(path): not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            throw GIFError(code == ENOENT ? .notFound : .unreadable, "cannot open \(path): \(reason)")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw GIFError(.unreadable, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw GIFError(.unreadable, "cannot read \(path): not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let size = Int(status.st_size)
        guard size <= maxBytes else {
            throw GIFError(.tooLarge, "\(path) is \(size) bytes, more than the limit of \(maxBytes)")
        }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
        var done = 0
        while done < size {
            let count = read(fd, storage.baseAddress! + done, size - done)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                storage.deallocate()
                throw GIFError(.unreadable, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }  // the file shrank while being read
            done += count
        }
        return ByteSource(owning: storage, count: done)
    }
}
