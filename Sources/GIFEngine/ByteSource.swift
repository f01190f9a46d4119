import CGif

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
    }

    /// A source owning `storage` (allocated with `allocate`), of which the first `count` bytes are the file.
    init(owning storage: UnsafeMutableRawBufferPointer, count: Int) {
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<count])
    }

    deinit {
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
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
        // Borrowed for the call, without a retain and release on each of
        // giflib's reads (two per 255-byte block of LZW data).
        return Unmanaged<ByteSource>.fromOpaque(user)._withUnsafeGuaranteedRef { source in
            Int32(source.read(into: target, count: Int(count)))
        }
    }
}
