/// Builds GIF files block by block for tests, with a real LZW encoder, so a
/// test says exactly which blocks a file has.
public struct GIFBuilder {
    /// The file so far.
    public private(set) var bytes: [UInt8] = []

    /// A header and logical screen descriptor, with a global color table when `colors` is given.
    /// `colorResolution` is the descriptor's 3-bit field (7: 8 bits a primary).
    public init(width: Int, height: Int, colors: [[UInt8]]? = nil, version: String = "GIF89a", background: UInt8 = 0, colorResolution: UInt8 = 7) {
        bytes = Array(version.utf8)
        bytes += Self.word(width) + Self.word(height)
        let resolution = (colorResolution & 7) << 4
        if let colors {
            let bits = Self.tableBits(colors.count)
            bytes += [0x80 | resolution | UInt8(bits - 1), background, 0]
            bytes += Self.table(colors, bits: bits)
        } else {
            bytes += [resolution, background, 0]
        }
    }

    /// A NETSCAPE2.0 loop extension.
    public mutating func loop(_ count: Int) {
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + Self.word(count) + [0]
    }

    /// A graphic control extension.
    public mutating func control(delay: Int = 0, disposal: Int = 0, transparent: Int? = nil) {
        let packed = UInt8(disposal << 2) | (transparent == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, packed] + Self.word(delay) + [UInt8(transparent ?? 0), 0]
    }

    /// A comment extension.
    public mutating func comment(_ text: [UInt8]) {
        bytes += [0x21, 0xFE] + Self.subBlocks(text)
    }

    /// An image block. `pixels` are color indices in stored order (already
    /// interlaced when `interlaced`); `codeSize` defaults to what the colors need.
    /// `uncompressed`: literal codes only, a clear code before every pair, so
    /// the code table never grows (sizes are then easy to predict).
    public mutating func image(
        left: Int = 0, top: Int = 0, width: Int, height: Int, pixels: [UInt8],
        colors: [[UInt8]]? = nil, interlaced: Bool = false, codeSize: Int? = nil, uncompressed: Bool = false
    ) {
        bytes += [0x2C] + Self.word(left) + Self.word(top) + Self.word(width) + Self.word(height)
        var flags: UInt8 = interlaced ? 0x40 : 0
        var bits = 2
        if let colors {
            bits = Self.tableBits(colors.count)
            flags |= 0x80 | UInt8(bits - 1)
            bytes.append(flags)
            bytes += Self.table(colors, bits: bits)
        } else {
            bytes.append(flags)
            bits = max(2, Self.tableBits(Int(pixels.max() ?? 0) + 1))
        }
        let size = codeSize ?? max(2, bits)
        bytes.append(UInt8(size))
        let data = uncompressed ? Self.uncompressedLZW(pixels, minimumCodeSize: size) : Self.lzw(pixels, minimumCodeSize: size)
        bytes += Self.subBlocks(data)
    }

    /// Bytes as they are.
    public mutating func raw(_ more: [UInt8]) { bytes += more }

    /// The trailer.
    public mutating func trailer() { bytes.append(0x3B) }

    // MARK: Encoding

    public static func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    /// Bits per entry for a table of at least `count` colors (1 to 8).
    public static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while (1 << bits) < count && bits < 8 { bits += 1 }
        return bits
    }

    public static func table(_ colors: [[UInt8]], bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        for index in 0..<(1 << bits) {
            out += index < colors.count ? colors[index] : [0, 0, 0]
        }
        return out
    }

    /// `data` in sub-blocks of at most 255 bytes, then a terminator.
    public static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        out.append(0)
        return out
    }

    /// A standard GIF LZW stream: clear first, a clear whenever the table is
    /// full, the end code last.
    public static func lzw(_ pixels: [UInt8], minimumCodeSize: Int, endCode: Bool = true) -> [UInt8] {
        var writer = BitWriter()
        let clear = 1 << minimumCodeSize
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var table: [Int: Int] = [:]
        writer.write(clear, codeSize)
        guard var prefix = pixels.first.map(Int.init) else {
            if endCode { writer.write(clear + 1, codeSize) }
            return writer.flushed
        }
        for pixel in pixels.dropFirst() {
            let key = prefix << 8 | Int(pixel)
            if let code = table[key] {
                prefix = code
                continue
            }
            writer.write(prefix, codeSize)
            if next < 4096 {
                table[key] = next
                next += 1
                if next > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
            } else {
                writer.write(clear, codeSize)
                table.removeAll()
                codeSize = minimumCodeSize + 1
                next = clear + 2
            }
            prefix = Int(pixel)
        }
        writer.write(prefix, codeSize)
        if endCode {
            next += 1
            if next > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
            writer.write(clear + 1, codeSize)
        }
        return writer.flushed
    }

    /// LZW data of literal codes only, with a clear code before every pair of
    /// them, so the code width stays `minimumCodeSize + 1`.
    public static func uncompressedLZW(_ pixels: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, width = minimumCodeSize + 1
        var writer = BitWriter()
        for (index, pixel) in pixels.enumerated() {
            if index % 2 == 0 { writer.write(clear, width) }
            writer.write(Int(pixel), width)
        }
        writer.write(clear + 1, width)
        return writer.flushed
    }

    /// Packs codes least significant bit first.
    public struct BitWriter {
        var bytes: [UInt8] = []
        var buffer = 0
        var count = 0

        /// An empty writer.
        public init() {}

        /// Appends `code` of `size` bits.
        public mutating func write(_ code: Int, _ size: Int) {
            buffer |= code << count
            count += size
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        /// Whatever bits are left, padded to a byte.
        public var flushed: [UInt8] { count > 0 ? bytes + [UInt8(buffer & 0xFF)] : bytes }
    }
}
