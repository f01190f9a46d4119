import GIFEngine

/// The characters a cell is drawn with, each a two-colour pattern over a
/// small grid of pixels: the foreground colour on the pattern's pixels, the
/// background on the rest. Every pattern of each grid has a character, so a
/// cell can take any split of its pixels into two colours.
///
/// | set | pixels a cell | characters |
/// |---|---|---|
/// | `half` | 1×2 | `▀ ▄ █` and space (Block Elements, every terminal) |
/// | `quad` | 2×2 | the quadrants U+2596–U+259F with `▀ ▄ ▌ ▐ █` and space |
/// | `sextant` | 2×3 | U+1FB00–U+1FB3B (Unicode 13) with `▌ ▐ █` and space |
/// | `octant` | 2×4 | U+1CD00–U+1CDE5 (Unicode 16) with the quadrants, the quarter blocks (`▂ ▆`, U+1FB82, U+1FB85, U+1FBE6, U+1FBE7, U+1CEA0, U+1CEA3, U+1CEA8, U+1CEAB) and space |
///
/// A pattern's bit `y × width + x` is the pixel in column `x`, row `y` of the
/// cell (top-left first): for octants the digits of the Unicode name
/// `BLOCK OCTANT-n…`, less one, are its set bits.
public enum Symbols: String, Sendable, CaseIterable {
    case half, quad, sextant, octant

    /// The pixels of one cell.
    public var cell: CellSize {
        switch self {
        case .half: .halfBlock
        case .quad: .quadrant
        case .sextant: .sextant
        case .octant: .octant
        }
    }

    /// How it reads in the session event and `--verbose`.
    public var title: String {
        switch self {
        case .half: "half blocks (1×2 pixels a cell)"
        case .quad: "quadrants (2×2 pixels a cell)"
        case .sextant: "sextants (2×3 pixels a cell)"
        case .octant: "octants (2×4 pixels a cell)"
        }
    }

    /// The character that shows `pattern` in the foreground colour, as UTF-8.
    public func glyph(_ pattern: Int) -> [UInt8] {
        let packed = BlockGlyphs.table(self)[pattern]
        return (0..<Int(packed >> 32)).map { UInt8(truncatingIfNeeded: packed >> (8 * $0)) }
    }
}
