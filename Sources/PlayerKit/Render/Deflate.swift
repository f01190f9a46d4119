import CZlib

/// zlib, for the kitty protocol's compressed pixels (`o=z`) and PNG's data.
enum Deflate {
    /// `bytes` compressed into a zlib stream (RFC 1950) at `level` (1 fastest … 9 smallest).
    static func zlib(_ bytes: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            compress2(target.baseAddress, &size, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(bytes.count), level)
        }
        // compressBound is always enough; a failure would be memory, and then nothing is sent.
        guard status == Z_OK else { return [] }
        out.removeSubrange(Int(size)...)
        return out
    }

    /// ``zlib(_:level:)`` of an array.
    static func zlib(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        bytes.withUnsafeBytes { zlib($0, level: level) }
    }

    /// The CRC-32 of `bytes` after `crc` (PNG's chunk check).
    static func crc32(_ bytes: some Collection<UInt8>, after crc: UInt32 = 0) -> UInt32 {
        Array(bytes).withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
