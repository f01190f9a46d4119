import CGif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file's bytes, owned at a fixed address, with the read position giflib
/// reads from through ``readCallback``.
///
/// giflib pulls bytes through a callback; holding the file in memory lets the
/// decoder move the position itself (to an image block the walk found, past
/// data it has finished with), which giflib never notices because it keeps no
/// read-ahead of its own between records.
final class ByteSource {
    /// The bytes, valid until deinit.
    let bytes: UnsafeRawBufferPointer
    /// Where giflib's next read starts.
    var offset = 0

    /// A source holding a copy of `data`.
    init(copying data: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = storage.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<data.count])
        mappedLength = nil
    }

    /// A source owning `storage`, of which the first `count` bytes are the
    /// file: memory from `allocate`, or (`mapped`) from ``mapPages(_:)``.
    init(owning storage: UnsafeMutableRawBufferPointer, count: Int, mapped: Bool = false) {
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<count])
        mappedLength = mapped ? storage.count : nil
    }

    /// The length of the pages ``mapPages(_:)`` gave, nil for heap memory.
    private let mappedLength: Int?

    deinit {
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        if let mappedLength {
            munmap(base, mappedLength)
        } else {
            base?.deallocate()
        }
    }

    /// `count` bytes of fresh zeroed pages, all present (MAP_POPULATE): a
    /// file read into them costs no page fault per 4 KB, which for a 5 MB
    /// GIF was a quarter of the time its read took. Nil when mmap fails.
    static func mapPages(_ count: Int) -> UnsafeMutableRawBufferPointer? {
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        #endif
        guard let base = mmap(nil, count, PROT_READ | PROT_WRITE, flags, -1, 0), base != MAP_FAILED else { return nil }
        return UnsafeMutableRawBufferPointer(start: base, count: count)
    }

    /// Copies up to `count` bytes to `target`; returns how many.
    func read(into target: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let available = min(count, bytes.count - offset)
        guard available > 0, let base = bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(target).copyMemory(from: base + offset, byteCount: available)
        offset += available
        return available
    }

    /// giflib's input function: reads from the ``ByteSource`` in `UserData`.
    static let readCallback: InputFunc = { gif, target, count in
        guard let gif, let target, count > 0, let user = gif.pointee.UserData else { return 0 }
        let source = Unmanaged<ByteSource>.fromOpaque(user).takeUnretainedValue()
        return Int32(source.read(into: target, count: Int(count)))
    }
}
