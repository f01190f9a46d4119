/// The character of each pattern of each ``Symbols`` set, packed for the
/// renderer's hot path: the UTF-8 bytes in the low 32 bits (first byte
/// lowest), their count above.
enum BlockGlyphs {
    static let half = pack([0x20, 0x2580, 0x2584, 0x2588])
    static let quad = pack(quadrants)
    static let sextant = pack((0..<64).map(sextant))
    static let octant = pack((0..<256).map(octant))

    /// The table of `symbols`, indexed by pattern.
    @inline(__always)
    static func table(_ symbols: Symbols) -> [UInt64] {
        switch symbols {
        case .half: half
        case .quad: quad
        case .sextant: sextant
        case .octant: octant
        }
    }

    /// The 2×2 patterns (bit 0 upper left, 1 upper right, 2 lower left, 3
    /// lower right): space, the ten quadrants, the four half blocks, `█`.
    static let quadrants: [UInt32] = [
        0x20, 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588,
    ]

    /// U+1FB00 `BLOCK SEXTANT-1` on, in the order of the patterns, leaving out
    /// the four that Block Elements had: space, `▌` (21), `▐` (42), `█` (63).
    static func sextant(_ pattern: Int) -> UInt32 {
        switch pattern {
        case 0: 0x20
        case 0b010101: 0x258C
        case 0b101010: 0x2590
        case 0b111111: 0x2588
        default: UInt32(0x1FB00 + pattern - 1 - (pattern > 21 ? 1 : 0) - (pattern > 42 ? 1 : 0))
        }
    }

    /// The 26 octant patterns Unicode encodes outside U+1CD00–U+1CDE5: the 16
    /// quadrant patterns (each pair of rows alike) and these ten.
    static let olderOctants: [Int: UInt32] = [
        0b0000_0001: 0x1CEA8,  // LEFT HALF UPPER ONE QUARTER BLOCK
        0b0000_0010: 0x1CEAB,  // RIGHT HALF UPPER ONE QUARTER BLOCK
        0b0000_0011: 0x1FB82,  // UPPER ONE QUARTER BLOCK
        0b0001_0100: 0x1FBE6,  // MIDDLE LEFT ONE QUARTER BLOCK
        0b0010_1000: 0x1FBE7,  // MIDDLE RIGHT ONE QUARTER BLOCK
        0b0011_1111: 0x1FB85,  // UPPER THREE QUARTERS BLOCK
        0b0100_0000: 0x1CEA3,  // LEFT HALF LOWER ONE QUARTER BLOCK
        0b1000_0000: 0x1CEA0,  // RIGHT HALF LOWER ONE QUARTER BLOCK
        0b1100_0000: 0x2582,  // LOWER ONE QUARTER BLOCK
        0b1111_1100: 0x2586,  // LOWER THREE QUARTERS BLOCK
    ]

    /// An octant pattern's older character, if it has one.
    static func olderOctant(_ pattern: Int) -> UInt32? {
        let rows = (0..<4).map { pattern >> (2 * $0) & 3 }
        if rows[0] == rows[1] && rows[2] == rows[3] { return quadrants[rows[0] | rows[2] << 2] }
        return olderOctants[pattern]
    }

    /// `BLOCK OCTANT-…`: U+1CD00 (`BLOCK OCTANT-3`, pattern 4) on, in the
    /// order of the patterns, leaving out those with an older character.
    static func octant(_ pattern: Int) -> UInt32 {
        if let older = olderOctant(pattern) { return older }
        let before = (0..<pattern).count { olderOctant($0) == nil }
        return UInt32(0x1CD00 + before)
    }

    private static func pack(_ scalars: [UInt32]) -> [UInt64] {
        scalars.map { scalar in
            let bytes = Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
            var word = UInt64(bytes.count) << 32
            for (index, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * index) }
            return word
        }
    }
}
