/// Appends ASCII to a byte buffer without going through `String`, for the hot path.
/// The writer keeps the buffer's address, size and count itself (values the
/// compiler can hold in registers) and hands them back only when it grows it.
struct ByteWriter {
    private let buffer: ByteBuffer
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    /// A writer on a new buffer.
    init(capacity: Int) { self.init(reusing: ByteBuffer(capacity: capacity)) }

    /// A writer on `buffer`, emptied: the buffer's memory is reused.
    init(reusing buffer: ByteBuffer) {
        buffer.count = 0
        self.buffer = buffer
        base = buffer.base
        capacity = buffer.capacity
    }

    /// What was written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Appends what was written to `target`.
    func write(to target: inout [UInt8]) {
        target.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// Room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        buffer.count = count
        buffer.reserve(extra)
        base = buffer.base
        capacity = buffer.capacity
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        (base + count).update(from: text.utf8Start, count: n)
        count += n
    }

    mutating func append(contentsOf bytes: some Collection<UInt8>) {
        reserve(bytes.count)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            guard let start = source.baseAddress else { return }
            (base + count).update(from: start, count: source.count)
            count += source.count
        }
        guard copied == nil else { return }
        for byte in bytes {
            base[count] = byte
            count += 1
        }
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// The first `count` (1–4) bytes of `utf8`, lowest first: one character,
    /// written as one 4-byte store.
    @inline(__always)
    mutating func append(utf8: UInt32, count n: Int) {
        reserve(4)
        UnsafeMutableRawPointer(base + count).storeBytes(of: utf8.littleEndian, as: UInt32.self)
        count += n
    }

    @inline(__always)
    mutating func append(number: Int) {
        guard number >= 0 && number < 1000 else {
            for byte in String(number).utf8 { append(byte: byte) }
            return
        }
        reserve(3)
        let at = base + count
        if number < 10 {
            at[0] = UInt8(48 + number)
            count += 1
        } else if number < 100 {
            at[0] = UInt8(48 + number / 10)
            at[1] = UInt8(48 + number % 10)
            count += 2
        } else {
            at[0] = UInt8(48 + number / 100)
            at[1] = UInt8(48 + number / 10 % 10)
            at[2] = UInt8(48 + number % 10)
            count += 3
        }
    }

    /// `38;2;R;G;B` (or `48;…` for the background) for the 0xRRGGBB `color`,
    /// written in one go: the renderers' hottest few bytes. Each part is one
    /// store: the 5-byte head as 8 bytes and each channel's digits as 4, the
    /// bytes past the part overwritten by the next (or left past the end).
    mutating func appendTruecolor(background: Bool, _ color: Int) {
        reserve(24)
        let start = base + count
        let at = UnsafeMutableRawPointer(start)
        // "38;2;" or "48;2;", the first byte lowest.
        at.storeBytes(of: (background ? 0x3B_32_3B_38_34 : 0x3B_32_3B_38_33 as UInt64).littleEndian, as: UInt64.self)
        var n = 5
        n += Self.putChannel(color >> 16, at + n)
        n += Self.putChannel(color >> 8 & 0xFF, at + n)
        n += Self.putChannel(color & 0xFF, at + n) - 1  // no ';' after the last
        count += n
    }

    /// Writes channel `value` (0–255) and a ';' at `at` as one 4-byte store
    /// (plus whatever follows in the word); returns the bytes that count.
    @inline(__always)
    private static func putChannel(_ value: Int, _ at: UnsafeMutableRawPointer) -> Int {
        let entry = channelDigits[value & 0xFF]
        at.storeBytes(of: UInt32(truncatingIfNeeded: entry).littleEndian, as: UInt32.self)
        return Int(entry >> 32)
    }

    /// For 0–255: the decimal digits and a ';' in the low 4 bytes (little-endian), their count above.
    private static let channelDigits: [UInt64] = (0..<256).map { value in
        let text = Array(String(value).utf8) + [0x3B]
        var word: UInt64 = 0
        for (index, byte) in text.enumerated() { word |= UInt64(byte) << (8 * index) }
        return word | UInt64(text.count) << 32
    }

    /// `ESC [ row ; col H` (1-based).
    mutating func moveTo(row: Int, col: Int) {
        append("\u{1B}[")
        append(number: row)
        append(byte: 0x3B)
        append(number: col)
        append(byte: UInt8(ascii: "H"))
    }
}
