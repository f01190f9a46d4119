import Hashing
import FoundationEssentials
import Glibc
import SposureKit
import NetKit

/// The content cache: GIFs stored under names made from a SHA-256 hash, never
/// from remote strings, and written under a temporary name first.
///
/// ```
/// <root>/images/3f/3fa2….gif   complete, checked entries
/// <root>/tmp/<pid>-<n>.part    transfers in progress (removed on any exit we control)
/// ```
public final class ImageCache: @unchecked Sendable {
    /// The cache folder.
    public let root: String
    private let images: String
    private let temporary: String
    private var madeFolders = Set<String>()
    private var temporaryCounter = 0
    /// Why nothing can be stored, when the cache can only be read (a
    /// read-only folder): hits are served, downloads fail.
    public let unwritable: FileError?

    /// The folder to use when none is given: `$SPOSURE_CACHE`, else
    /// `$XDG_CACHE_HOME/sposure`, else `~/.cache/sposure`.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Folders.cache(environment: environment)
    }

    /// Opens (creating as needed) the cache at `root`, and removes temporary
    /// files left by runs that no longer exist. A cache that exists but cannot
    /// be written opens read-only (``unwritable``); one that cannot be made or
    /// read at all throws.
    public init(root: String) throws(FileError) {
        let absolute = Paths.absolute(root)
        self.root = absolute
        images = absolute + "/images"
        temporary = absolute + "/tmp"
        var unwritable: FileError?
        for folder in [absolute, images, temporary] where unwritable == nil {
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                let failure = FileError("create", path: folder, code: errno)
                // Only a folder that is there to read from can serve hits.
                guard Self.isReadableFolder(images) else { throw failure }
                unwritable = failure
            }
        }
        if unwritable == nil && access(temporary, W_OK) != 0 {
            let failure = FileError("write to", path: temporary, code: errno)
            guard Self.isReadableFolder(images) else { throw failure }
            unwritable = failure
        }
        self.unwritable = unwritable
        if unwritable == nil { removeStaleTemporaries() }
    }

    private static func isReadableFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR && access(path, R_OK | X_OK) == 0
    }

    /// The hex SHA-256 that names `key`'s entry.
    public static func name(forKey key: String) -> String {
        SHA256.hash(data: key.utf8).hexString
    }

    /// Where `key`'s entry lives (whether or not it exists).
    public func path(forKey key: String) -> String {
        let name = Self.name(forKey: key)
        return "\(images)/\(name.prefix(2))/\(name).gif"
    }

    /// A fresh temporary path in the cache, unique to this process.
    public func temporaryPath() -> String {
        temporaryCounter += 1
        return "\(temporary)/\(getpid())-\(temporaryCounter).part"
    }

    /// A complete entry: its size and content hash.
    public struct Entry: Sendable, Equatable {
        /// The file size.
        public var bytes: Int
        /// The hex SHA-256 of the content.
        public var sha256: String
    }

    /// Reads the entry at `path` when it exists and still starts like a GIF.
    public func lookup(path: String) -> Entry? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var hasher = SHA256()
        var total = 0
        var head: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk.baseAddress!, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            let piece = UnsafeRawBufferPointer(rebasing: chunk[0..<n])
            if head.count < 6 { head.append(contentsOf: piece.prefix(6 - head.count)) }
            hasher.update(bufferPointer: piece)
            total += n
        }
        guard GIFSignature.matches(head) else { return nil }
        return Entry(bytes: total, sha256: hasher.finalize().hexString)
    }

    /// Moves a complete temporary file into place at `path`, atomically.
    public func commit(temporary: String, to path: String) throws(FileError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if !madeFolders.contains(folder) {
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw FileError("create", path: folder, code: errno)
            }
            madeFolders.insert(folder)
        }
        if rename(temporary, path) != 0 {
            throw FileError("rename into", path: path, code: errno)
        }
    }

    /// Removes `<pid>-<n>.part` files whose process is gone.
    private func removeStaleTemporaries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for name in names {
            guard name.hasSuffix(".part"), let dash = name.firstIndex(of: "-"),
                  let pid = Int32(name[..<dash]) else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH {
                unlink("\(temporary)/\(name)")
            }
        }
    }
}

/// The six bytes every GIF starts with.
public enum GIFSignature {
    /// True when `head` starts with `GIF87a` or `GIF89a`.
    public static func matches(_ head: some Collection<UInt8>) -> Bool {
        let bytes = Array(head.prefix(6))
        return bytes == Array("GIF89a".utf8) || bytes == Array("GIF87a".utf8)
    }
}
