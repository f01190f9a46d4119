/// Block characters as geometry: the rectangles of a cell each one fills,
/// from the characters' Unicode names, not from any renderer's tables, so
/// that tests (and benchmarks) can see what a terminal would draw.
///
/// A rectangle is in a cell 2 units wide and 12 tall (halves across;
/// halves, thirds and quarters down).
public enum BlockGeometry {
    /// One filled rectangle: columns `x0..<x1` (0–2), rows `y0..<y1` (0–12).
    public struct Rectangle: Sendable, Equatable {
        public var x0: Int, y0: Int, x1: Int, y1: Int

        public init(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            self.x0 = x0
            self.y0 = y0
            self.x1 = x1
            self.y1 = y1
        }
    }

    /// The rectangles `scalar` fills; nil when it is not a block character
    /// known here. A space fills none.
    public static func rectangles(_ scalar: Unicode.Scalar) -> [Rectangle]? {
        let value = Int(scalar.value)
        if let named = named[value] { return named }
        if (0x1FB00...0x1FB3B).contains(value) { return grid(sextants[value - 0x1FB00], rows: 3) }
        if (0x1CD00...0x1CDE5).contains(value) { return grid(octants[value - 0x1CD00], rows: 4) }
        return nil
    }

    /// Whether the pixel (`x`, `y`) of a cell of `width` × `height` pixels is
    /// in the foreground of `scalar` (its centre inside a rectangle); nil
    /// when the character is not known.
    public static func covers(_ scalar: Unicode.Scalar, x: Int, y: Int, width: Int, height: Int) -> Bool? {
        guard let rectangles = rectangles(scalar) else { return nil }
        // Centres in units of 1 / (2·width) across and 1 / (2·height) down, scaled to the 2 × 12 grid.
        let cx = (2 * x + 1) * 2, cy = (2 * y + 1) * 12
        return rectangles.contains { cx > $0.x0 * 2 * width && cx < $0.x1 * 2 * width
            && cy > $0.y0 * 2 * height && cy < $0.y1 * 2 * height }
    }

    /// A sextant or octant name's digits (`BLOCK SEXTANT-135`): digit d fills
    /// column (d − 1) mod 2 of row (d − 1) / 2, of `rows` rows.
    private static func grid(_ digits: String, rows: Int) -> [Rectangle] {
        digits.compactMap { $0.wholeNumberValue }.map { digit in
            let column = (digit - 1) % 2, row = (digit - 1) / 2, step = 12 / rows
            return Rectangle(column, row * step, column + 1, (row + 1) * step)
        }
    }

    private static let named: [Int: [Rectangle]] = [
        0x20: [],
        0x2580: [Rectangle(0, 0, 2, 6)],  // UPPER HALF BLOCK
        0x2582: [Rectangle(0, 9, 2, 12)],  // LOWER ONE QUARTER BLOCK
        0x2584: [Rectangle(0, 6, 2, 12)],  // LOWER HALF BLOCK
        0x2586: [Rectangle(0, 3, 2, 12)],  // LOWER THREE QUARTERS BLOCK
        0x2588: [Rectangle(0, 0, 2, 12)],  // FULL BLOCK
        0x258C: [Rectangle(0, 0, 1, 12)],  // LEFT HALF BLOCK
        0x2590: [Rectangle(1, 0, 2, 12)],  // RIGHT HALF BLOCK
        0x2596: [Rectangle(0, 6, 1, 12)],  // QUADRANT LOWER LEFT
        0x2597: [Rectangle(1, 6, 2, 12)],  // QUADRANT LOWER RIGHT
        0x2598: [Rectangle(0, 0, 1, 6)],  // QUADRANT UPPER LEFT
        0x2599: [Rectangle(0, 0, 1, 12), Rectangle(1, 6, 2, 12)],  // UPPER LEFT AND LOWER LEFT AND LOWER RIGHT
        0x259A: [Rectangle(0, 0, 1, 6), Rectangle(1, 6, 2, 12)],  // UPPER LEFT AND LOWER RIGHT
        0x259B: [Rectangle(0, 0, 2, 6), Rectangle(0, 6, 1, 12)],  // UPPER LEFT AND UPPER RIGHT AND LOWER LEFT
        0x259C: [Rectangle(0, 0, 2, 6), Rectangle(1, 6, 2, 12)],  // UPPER LEFT AND UPPER RIGHT AND LOWER RIGHT
        0x259D: [Rectangle(1, 0, 2, 6)],  // QUADRANT UPPER RIGHT
        0x259E: [Rectangle(1, 0, 2, 6), Rectangle(0, 6, 1, 12)],  // UPPER RIGHT AND LOWER LEFT
        0x259F: [Rectangle(1, 0, 2, 12), Rectangle(0, 6, 1, 12)],  // UPPER RIGHT AND LOWER LEFT AND LOWER RIGHT
        0x1FB82: [Rectangle(0, 0, 2, 3)],  // UPPER ONE QUARTER BLOCK
        0x1FB85: [Rectangle(0, 0, 2, 9)],  // UPPER THREE QUARTERS BLOCK
        0x1FBE6: [Rectangle(0, 3, 1, 9)],  // MIDDLE LEFT ONE QUARTER BLOCK
        0x1FBE7: [Rectangle(1, 3, 2, 9)],  // MIDDLE RIGHT ONE QUARTER BLOCK
        0x1CEA0: [Rectangle(1, 9, 2, 12)],  // RIGHT HALF LOWER ONE QUARTER BLOCK
        0x1CEA3: [Rectangle(0, 9, 1, 12)],  // LEFT HALF LOWER ONE QUARTER BLOCK
        0x1CEA8: [Rectangle(0, 0, 1, 3)],  // LEFT HALF UPPER ONE QUARTER BLOCK
        0x1CEAB: [Rectangle(1, 0, 2, 3)],  // RIGHT HALF UPPER ONE QUARTER BLOCK
    ]

    /// The digits of `BLOCK SEXTANT-…`, U+1FB00 on (UnicodeData.txt).
    private static let sextants = """
        1 2 12 3 13 23 123 4 14 24 124 34 134 234 1234 5 15 25 125 35 235 1235 45 145 245 1245 345
        1345 2345 12345 6 16 26 126 36 136 236 1236 46 146 1246 346 1346 2346 12346 56 156 256 1256
        356 1356 2356 12356 456 1456 2456 12456 3456 13456 23456
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// The digits of `BLOCK OCTANT-…`, U+1CD00 on (UnicodeData.txt, Unicode 16).
    private static let octants = """
        3 23 123 4 14 124 34 134 234 5 15 25 125 135 235 1235 45 145 245 1245 345 1345 2345 12345 6
        16 26 126 36 136 236 1236 146 246 1246 346 1346 2346 12346 56 156 256 1256 356 1356 2356
        12356 456 1456 2456 12456 3456 13456 23456 17 27 127 37 137 237 1237 47 147 247 1247 347
        1347 2347 12347 157 257 1257 357 2357 12357 457 1457 12457 3457 13457 23457 67 167 267 1267
        367 1367 2367 12367 467 1467 2467 12467 3467 13467 23467 123467 567 1567 2567 12567 3567
        13567 23567 123567 4567 14567 24567 124567 34567 134567 234567 1234567 18 28 128 38 138 238
        1238 48 148 248 1248 348 1348 2348 12348 58 158 258 1258 358 1358 2358 12358 458 1458 2458
        12458 3458 13458 23458 123458 168 268 1268 368 2368 12368 468 1468 12468 3468 13468 23468
        568 1568 2568 12568 3568 13568 23568 123568 4568 14568 24568 124568 34568 134568 234568
        1234568 178 278 1278 378 1378 2378 12378 478 1478 2478 12478 3478 13478 23478 123478 578
        1578 2578 12578 3578 13578 23578 123578 4578 14578 24578 124578 34578 134578 234578 1234578
        678 1678 2678 12678 3678 13678 23678 123678 4678 14678 24678 124678 34678 134678 234678
        1234678 15678 25678 125678 35678 235678 1235678 45678 145678 1245678 1345678 2345678
        """.split(whereSeparator: \.isWhitespace).map(String.init)
}
