/// A frame fitted to the screen: RGB pixels, two pixel rows a text row for the
/// half-block renderers, or real pixels for the graphics protocols.
public struct CellPicture: Sendable, Equatable {
    /// Width in pixels (= cells for half blocks).
    public var width: Int
    /// Height in pixels (= 2 × text rows for half blocks).
    public var height: Int
    /// RGB, 3 bytes a pixel, top row first, transparency already blended.
    public var rgb: [UInt8]

    /// A picture of `width` × `height` RGB pixels.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }
}

/// Appends ASCII to a byte buffer without going through `String`, for the hot path.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(byte: UInt8) { bytes.append(byte) }

    mutating func append(number: Int) {
        if number < 10 {
            bytes.append(UInt8(48 + number))
        } else if number < 100 {
            bytes.append(UInt8(48 + number / 10))
            bytes.append(UInt8(48 + number % 10))
        } else if number < 1000 {
            bytes.append(UInt8(48 + number / 100))
            bytes.append(UInt8(48 + number / 10 % 10))
            bytes.append(UInt8(48 + number % 10))
        } else {
            bytes.append(contentsOf: String(number).utf8)
        }
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
