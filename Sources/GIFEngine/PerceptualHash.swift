/// A 64-bit difference hash ("dHash") of one frame: the frame shrunk to a
/// grey thumbnail of 9×8 cells, each bit saying whether a cell is brighter
/// than its right-hand neighbour. Two pictures of the same clip (re-encoded,
/// resized, given a new palette, cropped by a few pixels) give hashes a few
/// bits apart; pictures that differ give hashes far apart. ``distance(to:)``
/// counts the bits that differ.
///
/// Each cell is the mean grey of the canvas pixels it covers (sampled on a
/// grid of at most 288×256 points, so a large canvas costs no more than
/// that), with a transparent pixel as black: the canvas as decoded, never
/// the picture scaled for a terminal, so the screen size changes nothing.
/// A cell is "brighter" only by more than ``margin`` grey levels: in a flat
/// area two neighbours differ by noise, and without the margin their bit
/// would flip between two encodings of the same picture.
///
/// A picture with little to tell at that size gets no hash: fewer than
/// ``minimumDetail`` of its 64 pairs of cells differ by more than the
/// margin (a flat background with a small subject, a blank frame). Its
/// bits would be nearly all 0, and every other such picture the same clip.
///
/// Integer arithmetic only: the same pixels always give the same hash.
public struct PerceptualHash: Sendable, Hashable, CustomStringConvertible {
    /// The 64 bits: row 0 of the thumbnail in the highest byte, its left
    /// pair of cells in the highest bit of that byte.
    public var bits: UInt64

    /// The thumbnail's cells across (one more than the bits of a row).
    public static let columns = 9
    /// The thumbnail's rows.
    public static let rows = 8
    /// The smallest canvas hashed, in pixels: two a cell each way. A smaller
    /// GIF (an icon, a test pattern) has too few pixels to tell clips apart.
    public static let minimumWidth = 18, minimumHeight = 16
    /// How much brighter, in grey levels of 0–255, a cell must be than its
    /// neighbour for its bit to be set (see the measurement in docs/gif-engine.md).
    public static let margin = 2
    /// The pairs of neighbouring cells, of 64, that must differ by more than
    /// ``margin`` for a picture to be hashed.
    public static let minimumDetail = 16
    /// The most points sampled each way.
    static let maxSamples = (across: 288, down: 256)

    /// A hash of these bits.
    public init(bits: UInt64) { self.bits = bits }

    /// The hash written as 16 hex digits (upper or lower case); nil for anything else.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        bits = value
    }

    /// The 16 lowercase hex digits of ``bits``.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<16).map { digits[Int(bits >> UInt64(60 - 4 * $0) & 0xF)] }, as: UTF8.self)
    }

    /// ``hex``.
    public var description: String { hex }

    /// The bits that differ from `other`'s, 0 (the same picture) to 64.
    public func distance(to other: PerceptualHash) -> Int { (bits ^ other.bits).nonzeroBitCount }

    // MARK: Making one

    /// The difference hash of `width`×`height` RGBA pixels (R, G, B, A
    /// bytes, rows top to bottom): ``FrameHash/of(rgba:width:height:)``'s
    /// ``FrameHash/gradient``.
    public static func of(rgba: UnsafeRawBufferPointer, width: Int, height: Int) -> PerceptualHash? {
        FrameHash.of(rgba: rgba, width: width, height: height)?.gradient
    }

    /// Luma (Rec. 709 weights) in 1/256 grey levels, 0–65 280, over black by alpha.
    @inline(__always)
    static func grey(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> Int {
        let luma = 54 * Int(red) + 183 * Int(green) + 19 * Int(blue)
        return alpha == 255 ? luma : luma * Int(alpha) / 255
    }
}
