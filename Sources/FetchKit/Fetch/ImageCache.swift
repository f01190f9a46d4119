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
        /// The MIME type its first bytes say (``ImageSignature``).
        public var mime: String?

        /// An entry of `bytes` bytes whose content hashes to `sha256`, of type `mime`.
        public init(bytes: Int, sha256: String, mime: String? = nil) {
            self.bytes = bytes
            self.sha256 = sha256
            self.mime = mime
        }
    }

    /// Reads the entry at `path` when it exists and still starts like a
    /// picture of one of the four formats.
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
            if head.count < ImageSignature.length { head.append(contentsOf: piece.prefix(ImageSignature.length - head.count)) }
            hasher.update(bufferPointer: piece)
            total += n
        }
        guard let mime = ImageSignature.mime(of: head) else { return nil }
        return Entry(bytes: total, sha256: hasher.finalize().hexString, mime: mime)
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

/// The first bytes of the pictures fetch-images keeps: GIF, JPEG, PNG and
/// WebP, the formats gif-play decodes. The same rules as GIFEngine's
/// `ImageFormat.sniff` (a test holds them together); fetch-images does not
/// link the decoders, whose libraries would cost every run its start-up.
public enum ImageSignature {
    /// The bytes read to tell the format (`RIFF`, a size, `WEBP`).
    public static let length = 12

    /// The four formats, for messages.
    public static let names = "GIF, JPEG, PNG or WebP"

    /// The MIME type of the picture `head` starts as (`image/gif`,
    /// `image/jpeg`, `image/png`, `image/webp`); nil for none of them.
    public static func mime(of head: some Collection<UInt8>) -> String? {
        let bytes = Array(head.prefix(length))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }

    /// The type a record's `mime` field names, as compared with the body's:
    /// lower case, without parameters, `image/jpg` read as `image/jpeg`;
    /// nil when the field is missing or empty.
    public static func expected(_ field: String?) -> String? {
        guard let field else { return nil }
        let type = String((field.split(separator: ";").first ?? "").filter { $0 != " " && $0 != "\t" }).lowercased()
        if type.isEmpty { return nil }
        return type == "image/jpg" || type == "image/pjpeg" ? "image/jpeg" : type
    }
}
