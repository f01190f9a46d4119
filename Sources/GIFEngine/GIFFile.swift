#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a GIF file into memory, refusing one larger than a limit before
/// reading it.
enum GIFFile {
    /// The bytes of the file at `path`.
    static func load(path: String, maxBytes: Int) throws(GIFError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
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
        let size = Int(status.st_size)
        guard size <= maxBytes else {
            throw GIFError(.tooLarge, "\(path) is \(size) bytes, more than the limit of \(maxBytes)")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base + done, size - done)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw GIFError(.unreadable, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }  // the file shrank while being read
            done += count
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }
}
