/// Draws pictures with block characters: each cell shows a two-colour
/// pattern of pixels (``Symbols``: 1×2 with half blocks, 2×2 quadrants, 2×3
/// sextants, 2×4 octants), the pattern in the foreground colour and the rest
/// in the background, in 24-bit colour or the xterm 256-colour palette. Each
/// cell takes the best split of its pixels into two colours (``CellSplit``).
///
/// Only cells that changed since the last frame are written, and each as
/// cheaply as it can be: a cell picks the character (the pattern, or its
/// complement with the colours swapped; a space or `█` for one colour) that
/// keeps the colours already set where it can, colour codes are written
/// only for colours that change (the colours set stay known from one frame to
/// the next), and the cursor gets to the next changed cell by the shortest
/// move (forward on a row, a new line and forward, or absolute). ``Screen``
/// sends the frame in synchronized output (`?2026`).
///
/// CR and LF are cursor moves only when the output is raw (a file, or a
/// terminal whose OPOST ``Terminal`` turned off: `lineFeeds`); otherwise
/// rows change with escape sequences alone.
public struct BlockRenderer: Sendable {
    /// 24-bit colour, or the 256-colour palette.
    public let truecolor: Bool
    /// The characters cells are drawn with.
    public let symbols: Symbols
    /// Whether CR (to the first column) and LF (down a row, same column) may
    /// move the cursor: the bytes reach the terminal untranslated.
    public var lineFeeds: Bool
    /// What each cell shows (``key(_:_:_:)``; `UInt64.max`: not known).
    private var previous: [UInt64] = []
    private var previousWidth = 0
    private var previousOrigin = (row: 0, col: 0)
    /// The last picture drawn: a cell whose pixels are the same is not fitted again.
    private var previousRGB: [UInt8] = []
    /// The colours the terminal has now (-1: not known).
    private var fg = -1, bg = -1
    /// Where frames are written, reused from frame to frame.
    private let scratch = ByteBuffer(capacity: 64 << 10)
    /// The characters of ``symbols``, by pattern (see ``BlockGlyphs``).
    private let glyphs: [UInt64]

    /// A renderer for truecolor or 256-colour terminals, drawing with `symbols`.
    public init(truecolor: Bool, symbols: Symbols = .half, lineFeeds: Bool = true) {
        self.truecolor = truecolor
        self.symbols = symbols
        self.lineFeeds = lineFeeds
        glyphs = BlockGlyphs.table(symbols)
    }

    /// Forgets what is on screen: the next frame is drawn whole.
    public mutating func invalidate() {
        previous = []
        previousRGB = []
        forgetColors()
    }

    /// Forgets the colours set: someone else wrote colour codes (or a reset).
    public mutating func forgetColors() {
        fg = -1
        bg = -1
    }

    /// The bytes that put `picture` on screen with its top-left cell at
    /// (`row`, `col`) (1-based), changed cells only; nothing when no cell changed.
    public mutating func render(_ picture: CellPicture, row originRow: Int, col originCol: Int) -> [UInt8] {
        var out: [UInt8] = []
        render(picture, row: originRow, col: originCol, appendingTo: &out)
        return out
    }

    /// ``render(_:row:col:)``, appended to `target`. The picture's pixels past
    /// its last whole cell are not drawn (``PreparedGIF`` pads to whole cells).
    public mutating func render(_ picture: CellPicture, row originRow: Int, col originCol: Int, appendingTo target: inout [UInt8]) {
        let cellWidth = symbols.cell.width, cellHeight = symbols.cell.height, count = cellWidth * cellHeight
        let cols = picture.width / cellWidth
        let rows = picture.height / cellHeight
        if previous.count != cols * rows || previousWidth != cols || previousOrigin != (originRow, originCol) {
            previous = Array(repeating: UInt64.max, count: cols * rows)
            previousWidth = cols
            previousOrigin = (originRow, originCol)
            previousRGB = []
        }
        var out = ByteWriter(reusing: scratch)
        // Where the cursor is, in the picture's cells (-1: not known).
        var cursorRow = -1, cursorCol = -1
        // Moved out (not copied) while the loop draws, which changes other state of self.
        var cells = previous
        previous = []
        defer { previous = cells }
        let last = previousRGB.count == picture.rgb.count ? previousRGB : []
        previousRGB = picture.rgb
        let stride = picture.width * 3
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { pixels in
        let pixels = pixels.baseAddress!
        cells.withUnsafeMutableBufferPointer { previous in
        picture.rgb.withUnsafeBufferPointer { rgb in
        last.withUnsafeBufferPointer { last in
            for row in 0..<rows {
                for col in 0..<cols {
                    let cell = row * cols + col
                    let corner = row * cellHeight * stride + col * cellWidth * 3
                    if !last.isEmpty && previous[cell] != UInt64.max
                        && Self.same(rgb, last, at: corner, stride: stride, width: cellWidth, height: cellHeight) {
                        continue
                    }
                    for y in 0..<cellHeight {
                        for x in 0..<cellWidth {
                            let at = corner + y * stride + x * 3
                            pixels[y * cellWidth + x] = Int(rgb[at]) << 16 | Int(rgb[at + 1]) << 8 | Int(rgb[at + 2])
                        }
                    }
                    var split = CellSplit.best(pixels, count: count)
                    if !truecolor {
                        split.inside = Palette256.index(rgb: split.inside)
                        split.outside = Palette256.index(rgb: split.outside)
                        if split.inside == split.outside { split.pattern = 1 << count - 1 }
                    }
                    let key = Self.key(split.pattern, split.inside, split.outside)
                    if previous[cell] == key { continue }
                    if truecolor && Self.alike(previous[cell], key, count: count) { continue }
                    move(&out, from: (cursorRow, cursorCol), to: (row, col), origin: (originRow, originCol), width: cols)
                    previous[cell] = drawCell(&out, split, count: count)
                    cursorRow = row
                    cursorCol = col + 1
                }
            }
        }
        }
        }
        }
        guard out.count > 0 else { return }
        out.write(to: &target)
    }

    /// Whether the cell at `corner` has the same pixels in both pictures.
    @inline(__always)
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, at corner: Int, stride: Int,
                             width: Int, height: Int) -> Bool {
        for y in 0..<height {
            let start = corner + y * stride
            for offset in start..<(start + width * 3) where a[offset] != b[offset] { return false }
        }
        return true
    }

    /// What a cell shows, packed: the pattern (bit 0 set; all set for one
    /// colour, then `inside == outside`), the colour of its pixels and of the
    /// others (0xRRGGBB, or palette indices).
    @inline(__always)
    static func key(_ pattern: Int, _ inside: Int, _ outside: Int) -> UInt64 {
        UInt64(pattern) << 48 | UInt64(inside) << 24 | UInt64(outside)
    }

    /// How far (0–255) a channel may move before a truecolor cell is drawn
    /// again. A cell is compared with what the screen shows, not with the last
    /// frame, so it is never further off than this: 2 levels of 255 cannot be
    /// seen in a moving picture, and the cells whose colours only shimmer
    /// (area averaging makes every edge that moves by part of a pixel do that)
    /// stay as they are instead of costing ~35 bytes each.
    static let tolerance = 2

    /// Whether every pixel of two cells of `count` pixels (``key(_:_:_:)``)
    /// differs by at most ``tolerance`` in every channel.
    @inline(__always)
    static func alike(_ a: UInt64, _ b: UInt64, count: Int) -> Bool {
        guard a != UInt64.max else { return false }
        let full = 1 << count - 1
        let patternA = Int(a >> 48), patternB = Int(b >> 48)
        let insideA = Int(a >> 24 & 0xFF_FFFF), outsideA = Int(a & 0xFF_FFFF)
        let insideB = Int(b >> 24 & 0xFF_FFFF), outsideB = Int(b & 0xFF_FFFF)
        let limit = UInt(2 * tolerance)
        // Each pair of groups that share a pixel: both patterns hold bit 0.
        if distance(insideA, insideB) > limit { return false }
        if patternA & ~patternB & full != 0 && distance(insideA, outsideB) > limit { return false }
        if ~patternA & patternB & full != 0 && distance(outsideA, insideB) > limit { return false }
        if ~patternA & ~patternB & full != 0 && distance(outsideA, outsideB) > limit { return false }
        return true
    }

    /// How far apart two 0xRRGGBB colours are, for ``tolerance``: each
    /// channel's difference plus the tolerance, which is in 0...2·tolerance
    /// when close enough (a negative one wraps to a huge UInt); the worst
    /// channel's, found without a branch per channel.
    @inline(__always)
    private static func distance(_ a: Int, _ b: Int) -> UInt {
        @inline(__always) func off(_ shift: Int) -> UInt {
            UInt(bitPattern: (a >> shift & 0xFF) &- (b >> shift & 0xFF) &+ tolerance)
        }
        return max(off(0), off(8), off(16))
    }

    /// The shortest way from the cursor to cell (`row`, `col`) of the picture.
    /// `cursor.col` is the cell after the last one written; past the
    /// picture's right edge (maybe the screen's, where terminals differ on
    /// what a relative move does) only CR LF and absolute moves are used.
    private func move(_ out: inout ByteWriter, from cursor: (row: Int, col: Int), to cell: (row: Int, col: Int),
                      origin: (row: Int, col: Int), width: Int) {
        if cursor.row == cell.row && cursor.col == cell.col { return }
        if cursor.row == cell.row && cursor.col < cell.col {
            forward(&out, cell.col - cursor.col)
            return
        }
        let screenRow = origin.row + cell.row, screenCol = origin.col + cell.col
        enum Way { case absolute, newLine, down }
        var best = (way: Way.absolute, cost: 4 + digits(screenRow) + digits(screenCol))
        if cursor.row >= 0 && cursor.row < cell.row {
            let rowsDown = cell.row - cursor.row
            if lineFeeds {
                // CR to the first column, LF down a row each.
                let cost = 1 + rowsDown + Self.forwardCost(screenCol - 1)
                if cost < best.cost { best = (.newLine, cost) }
            }
            if cursor.col < width {
                let cost = downCost(rowsDown) + Self.horizontalCost(cell.col - cursor.col)
                if cost < best.cost { best = (.down, cost) }
            }
        }
        switch best.way {
        case .absolute:
            out.moveTo(row: screenRow, col: screenCol)
        case .newLine:
            out.append(byte: 0x0D)
            for _ in 0..<(cell.row - cursor.row) { out.append(byte: 0x0A) }
            if screenCol > 1 { forward(&out, screenCol - 1) }
        case .down:
            let rowsDown = cell.row - cursor.row
            if lineFeeds && downCost(rowsDown) == rowsDown {
                for _ in 0..<rowsDown { out.append(byte: 0x0A) }
            } else {
                out.append("\u{1B}[")
                if rowsDown > 1 { out.append(number: rowsDown) }
                out.append(byte: UInt8(ascii: "B"))
            }
            let across = cell.col - cursor.col
            if across > 0 {
                forward(&out, across)
            } else if across < 0 && -across <= 3 {
                for _ in 0..<(-across) { out.append(byte: 0x08) }
            } else if across < 0 {
                out.append("\u{1B}[")
                out.append(number: -across)
                out.append(byte: UInt8(ascii: "D"))
            }
        }
    }

    /// Bytes of a move `n` rows down in the same column: LFs (raw output) or `ESC [ n B`.
    private func downCost(_ n: Int) -> Int {
        let escape = n == 1 ? 3 : 3 + digits(n)
        return lineFeeds ? min(n, escape) : escape
    }

    /// Bytes of `ESC [ n C` (none for 0).
    private static func forwardCost(_ n: Int) -> Int { n == 0 ? 0 : n == 1 ? 3 : 3 + String(n).utf8.count }

    /// Bytes of a move of `n` cells along the row: forward, or back with backspaces or `ESC [ n D`.
    private static func horizontalCost(_ n: Int) -> Int { n >= 0 ? forwardCost(n) : min(-n, forwardCost(-n)) }

    /// `ESC [ n C`: `n` cells to the right.
    private func forward(_ out: inout ByteWriter, _ n: Int) {
        out.append("\u{1B}[")
        if n > 1 { out.append(number: n) }
        out.append(byte: UInt8(ascii: "C"))
    }

    private func digits(_ n: Int) -> Int { n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : String(n).count }

    /// One cell showing `split`, with whichever character needs the fewest
    /// colour codes given the colours set now: the pattern with its colours,
    /// or its complement with them swapped. In truecolor a colour set that is
    /// within ``tolerance`` of the one wanted serves for it (the neighbours
    /// of a smooth picture often are); returns what the cell shows
    /// (``key(_:_:_:)``), which the next frame is compared with.
    private mutating func drawCell(_ out: inout ByteWriter, _ split: CellSplit, count: Int) -> UInt64 {
        let full = 1 << count - 1
        let inside = split.inside, outside = split.outside
        let fgInside = near(fg, inside), fgOutside = near(fg, outside)
        let bgInside = near(bg, inside), bgOutside = near(bg, outside)
        // A space or a full block when one colour set now serves both groups.
        if bgInside && bgOutside {
            out.append(byte: 0x20)
            return Self.key(full, bg, bg)
        }
        if fgInside && fgOutside {
            glyph(&out, full)
            return Self.key(full, fg, fg)
        }
        if inside == outside || (truecolor && near(inside, outside)) {
            setColors(&out, foreground: nil, background: inside)
            bg = inside
            out.append(byte: 0x20)
            return Self.key(full, inside, inside)
        }
        // The pattern needs fg = inside, bg = outside; its complement the other way round.
        let straight = (fgInside ? 0 : 1) + (bgOutside ? 0 : 1)
        let swapped = (fgOutside ? 0 : 1) + (bgInside ? 0 : 1)
        let flipped = swapped < straight
        let (wantFg, wantBg, keepFg, keepBg) = flipped ? (outside, inside, fgOutside, bgInside) : (inside, outside, fgInside, bgOutside)
        let foreground = keepFg ? fg : wantFg, background = keepBg ? bg : wantBg
        setColors(&out, foreground: keepFg ? nil : foreground, background: keepBg ? nil : background)
        fg = foreground
        bg = background
        glyph(&out, flipped ? full ^ split.pattern : split.pattern)
        let shown = flipped ? (background, foreground) : (foreground, background)
        return shown.0 == shown.1 ? Self.key(full, shown.0, shown.0) : Self.key(split.pattern, shown.0, shown.1)
    }

    /// The character of `pattern`.
    @inline(__always)
    private func glyph(_ out: inout ByteWriter, _ pattern: Int) {
        let packed = glyphs[pattern]
        out.append(utf8: UInt32(truncatingIfNeeded: packed), count: Int(packed >> 32))
    }

    /// Whether colour `set` (-1: not known) may stand for `wanted`: the same,
    /// or in truecolor within ``tolerance`` in every channel.
    @inline(__always)
    private func near(_ set: Int, _ wanted: Int) -> Bool {
        guard truecolor else { return set == wanted }
        return set >= 0 && Self.distance(set, wanted) <= UInt(2 * Self.tolerance)
    }

    /// One SGR sequence for whichever colours changed (none: nothing written).
    private func setColors(_ out: inout ByteWriter, foreground: Int?, background: Int?) {
        guard foreground != nil || background != nil else { return }
        out.append("\u{1B}[")
        if let foreground { colorParameters(&out, background: false, foreground) }
        if foreground != nil && background != nil { out.append(byte: 0x3B) }
        if let background { colorParameters(&out, background: true, background) }
        out.append(byte: UInt8(ascii: "m"))
    }

    private func colorParameters(_ out: inout ByteWriter, background: Bool, _ color: Int) {
        if truecolor, let index = Palette256.exactIndex(rgb: color) {
            // The same colour, shorter: `5;231` for `2;255;255;255`.
            out.append(background ? "48;5;" : "38;5;")
            out.append(number: index)
        } else if truecolor {
            out.appendTruecolor(background: background, color)
        } else {
            out.append(background ? "48;5;" : "38;5;")
            out.append(number: color)
        }
    }
}
