/// A PNG of RGB pixels (8 bits a channel, no interlace), the frames of the
/// iTerm2 protocol: each row filtered with Sub, then deflated.
enum PNGEncoder {
    /// The PNG file of `width` × `height` pixels of `rgb` (3 bytes a pixel).
    static func encode(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: (width * 3 + 1) * height)
        rgb.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = y * (width * 3 + 1), from = y * width * 3
                raw[row] = 1  // Sub: each byte less the one a pixel to its left
                for x in 0..<(width * 3) {
                    raw[row + 1 + x] = x < 3 ? source[from + x] : source[from + x] &- source[from + x - 3]
                }
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, truecolour, deflate, adaptive filters, no interlace
        chunk(&png, "IHDR", header)
        chunk(&png, "IDAT", Deflate.zlib(raw, level: 6))
        chunk(&png, "IEND", [])
        return png
    }

    private static func chunk(_ png: inout [UInt8], _ type: String, _ data: [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        png += bigEndian(Deflate.crc32(data, after: Deflate.crc32(typeBytes)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
