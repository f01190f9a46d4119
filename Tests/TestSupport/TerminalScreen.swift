/// What an xterm-like terminal does with the sequences the block renderers
/// write: CUP, CUF, CUB, CUD, BS, CR, LF (raw: down a row, same column), SGR
/// 0 / 38;2 / 48;2 / 38;5 / 48;5, `?…h`/`?…l`, `J`, `K`, and any character
/// (UTF-8) written into a cell with the colours set. ``raster(cellWidth:cellHeight:)``
/// then draws each cell's character as geometry (``BlockGeometry``): what a
/// terminal with pixel-perfect block characters would show.
public struct TerminalScreen {
    /// One cell: its character and the colours it was written with (nil: the default).
    public struct Cell: Equatable {
        public var scalar: Unicode.Scalar = " "
        public var fg: Int?, bg: Int?
    }

    public let columns: Int, rows: Int
    public private(set) var cells: [Cell]
    public private(set) var row = 1, col = 1
    private var pendingWrap = false
    private var fg: Int?, bg: Int?
    /// What a renderer must never do: wrap, scroll, write off screen, an unknown sequence.
    public var problems: [String] = []

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Cell(), count: columns * rows)
    }

    /// The cell at (`row`, `col`), 1-based.
    public func cell(row: Int, col: Int) -> Cell { cells[(row - 1) * columns + col - 1] }

    /// Applies `bytes` as the terminal would.
    public mutating func play(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { problems.append("a sequence cut short"); return }
                control(String(decoding: bytes[(i + 2)..<j], as: UTF8.self), final: bytes[j])
                i = j + 1
            } else if byte == 0x0A {
                // Terminals differ on LF in the pending-wrap state, and on the last row it scrolls.
                if pendingWrap { problems.append("LF in the pending-wrap state") }
                if row == rows { problems.append("LF on the last row (it would scroll)") }
                row = min(rows, row + 1); i += 1
            } else if byte == 0x0D {
                col = 1; pendingWrap = false; i += 1
            } else if byte == 0x08 {
                if pendingWrap { problems.append("backspace in the pending-wrap state") }
                col = max(1, col - 1); i += 1
            } else if byte < 0x20 || byte == 0x7F {
                problems.append("unexpected control byte \(byte)"); i += 1
            } else {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let text = String(decoding: bytes[i..<min(bytes.count, i + length)], as: UTF8.self)
                put(text.unicodeScalars.first ?? "?")
                i += length
            }
        }
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        if pendingWrap { problems.append("a character written after the last column (it would wrap)") }
        guard (1...rows).contains(row), (1...columns).contains(col) else {
            problems.append("a character written off screen at \(row);\(col)")
            return
        }
        cells[(row - 1) * columns + col - 1] = Cell(scalar: scalar, fg: fg, bg: bg)
        if col == columns { pendingWrap = true } else { col += 1 }
    }

    private mutating func control(_ parameters: String, final: UInt8) {
        if parameters.hasPrefix("?") { return }  // modes: synchronized output, the cursor, the alternate screen
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let n = max(1, numbers.first ?? 1)
        switch final {
        case UInt8(ascii: "H"):
            row = max(1, numbers.first ?? 1); col = numbers.count > 1 ? max(1, numbers[1]) : 1; pendingWrap = false
        case UInt8(ascii: "C"): col = min(columns, col + n); pendingWrap = false
        case UInt8(ascii: "D"): col = max(1, col - n); pendingWrap = false
        case UInt8(ascii: "B"): row = min(rows, row + n); pendingWrap = false
        case UInt8(ascii: "m"): sgr(numbers)
        case UInt8(ascii: "J"): erase(display: numbers.first ?? 0)
        case UInt8(ascii: "K"):
            for c in col...columns { cells[(row - 1) * columns + c - 1] = Cell(scalar: " ", fg: fg, bg: bg) }
        default: problems.append("unexpected sequence \(parameters)\(Character(UnicodeScalar(final)))")
        }
    }

    private mutating func erase(display mode: Int) {
        let here = (row - 1) * columns + col - 1
        let range = mode == 2 ? 0..<cells.count : mode == 1 ? 0..<min(cells.count, here + 1) : here..<cells.count
        for index in range { cells[index] = Cell(scalar: " ", fg: fg, bg: bg) }
    }

    private mutating func sgr(_ numbers: [Int]) {
        var k = 0
        while k < numbers.count {
            switch numbers[k] {
            case 0:
                fg = nil
                bg = nil
                k += 1
            case 2, 7: k += 1  // dim, inverse: the status line's text
            case 38 where k + 2 < numbers.count, 48 where k + 2 < numbers.count:
                let foreground = numbers[k] == 38
                let color: Int
                if numbers[k + 1] == 2, k + 4 < numbers.count {
                    color = numbers[k + 2] << 16 | numbers[k + 3] << 8 | numbers[k + 4]
                    k += 5
                } else {
                    color = Self.palette(numbers[k + 2])
                    k += 3
                }
                if foreground { fg = color } else { bg = color }
            default:
                problems.append("unexpected SGR \(numbers[k])")
                k += 1
            }
        }
    }

    /// xterm's colour for palette entry `n` (16–255).
    public static func palette(_ n: Int) -> Int {
        if n >= 232 {
            let v = 8 + 10 * (n - 232)
            return v << 16 | v << 8 | v
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let i = n - 16
        return levels[i / 36] << 16 | levels[i / 6 % 6] << 8 | levels[i % 6]
    }

    /// The screen's cells from (`row`, `col`) (1-based), `width` × `height`
    /// of them, drawn as `cellWidth` × `cellHeight` pixels each: 0xRRGGBB,
    /// nil where a default colour shows. A character that is not a known
    /// block is a problem, drawn in its background.
    public mutating func raster(row top: Int = 1, col left: Int = 1, width: Int? = nil, height: Int? = nil,
                                cellWidth: Int, cellHeight: Int) -> [Int?] {
        let width = width ?? columns - left + 1, height = height ?? rows - top + 1
        var pixels = [Int?](repeating: nil, count: width * cellWidth * height * cellHeight)
        let stride = width * cellWidth
        for y in 0..<height {
            for x in 0..<width {
                let cell = cells[(top + y - 1) * columns + left + x - 1]
                for py in 0..<cellHeight {
                    for px in 0..<cellWidth {
                        let covered = BlockGeometry.covers(cell.scalar, x: px, y: py, width: cellWidth, height: cellHeight)
                        if covered == nil { problems.append("not a block character: U+\(String(cell.scalar.value, radix: 16))") }
                        pixels[(y * cellHeight + py) * stride + x * cellWidth + px] = covered == true ? cell.fg : cell.bg
                    }
                }
            }
        }
        return pixels
    }
}
