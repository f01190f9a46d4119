/// Draws pictures with half blocks: each cell shows two pixels, one as the
/// foreground colour of `▀` or `▄` and the other as the background, in 24-bit
/// colour or the xterm 256-colour palette.
///
/// Only cells that changed since the last frame are written, and each as
/// cheaply as it can be: a cell picks the glyph (`▀`, `▄`, a space or `█`)
/// that keeps the colours already set where it can, colour codes are written
/// only for colours that change (the colours set stay known from one frame to
/// the next), and the cursor gets to the next changed cell by the shortest
/// move (forward on a row, a new line and forward, or absolute). ``Screen``
/// sends the frame in synchronized output (`?2026`).
///
/// CR and LF are cursor moves only when the output is raw (a file, or a
/// terminal whose OPOST ``Terminal`` turned off: `lineFeeds`); otherwise
/// rows change with escape sequences alone.
public struct HalfBlockRenderer: Sendable {
    /// 24-bit colour, or the 256-colour palette.
    public let truecolor: Bool
    /// Whether CR (to the first column) and LF (down a row, same column) may
    /// move the cursor: the bytes reach the terminal untranslated.
    public var lineFeeds: Bool
    private var previous: [UInt64] = []
    private var previousWidth = 0
    private var previousOrigin = (row: 0, col: 0)
    /// The colours the terminal has now (-1: not known).
    private var fg = -1, bg = -1
    /// Where frames are written, reused from frame to frame.
    private let scratch = ByteBuffer(capacity: 64 << 10)

    /// A renderer for truecolor or 256-colour terminals.
    public init(truecolor: Bool, lineFeeds: Bool = true) {
        self.truecolor = truecolor
        self.lineFeeds = lineFeeds
    }

    /// Forgets what is on screen: the next frame is drawn whole.
    public mutating func invalidate() {
        previous = []
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

    /// ``render(_:row:col:)``, appended to `target`.
    public mutating func render(_ picture: CellPicture, row originRow: Int, col originCol: Int, appendingTo target: inout [UInt8]) {
        let cols = picture.width
        let rows = picture.height / 2
        let count = cols * rows
        if previous.count != count || previousWidth != cols || previousOrigin != (originRow, originCol) {
            previous = Array(repeating: UInt64.max, count: count)
            previousWidth = cols
            previousOrigin = (originRow, originCol)
        }
        var out = ByteWriter(reusing: scratch)
        // Where the cursor is, in the picture's cells (-1: not known).
        var cursorRow = -1, cursorCol = -1
        // Moved out (not copied) while the loop draws, which changes other state of self.
        var cells = previous
        previous = []
        defer { previous = cells }
        cells.withUnsafeMutableBufferPointer { previous in
        picture.rgb.withUnsafeBufferPointer { rgb in
            for row in 0..<rows {
                let top = row * 2 * cols * 3
                let bottom = top + cols * 3
                for col in 0..<cols {
                    var upper = Int(rgb[top + col * 3]) << 16 | Int(rgb[top + col * 3 + 1]) << 8 | Int(rgb[top + col * 3 + 2])
                    var lower = Int(rgb[bottom + col * 3]) << 16 | Int(rgb[bottom + col * 3 + 1]) << 8 | Int(rgb[bottom + col * 3 + 2])
                    if !truecolor {
                        upper = Palette256.index(rgb: upper)
                        lower = Palette256.index(rgb: lower)
                    }
                    let key = UInt64(upper) << 24 | UInt64(lower)
                    let cell = row * cols + col
                    if previous[cell] == key { continue }
                    if truecolor && Self.alike(previous[cell], key) { continue }
                    move(&out, from: (cursorRow, cursorCol), to: (row, col), origin: (originRow, originCol), width: cols)
                    let shown = drawCell(&out, upper: upper, lower: lower)
                    previous[cell] = UInt64(shown.upper) << 24 | UInt64(shown.lower)
                    cursorRow = row
                    cursorCol = col + 1
                }
            }
        }
        }
        guard out.count > 0 else { return }
        out.write(to: &target)
    }

    /// How far (0–255) a channel may move before a truecolor cell is drawn
    /// again. A cell is compared with what the screen shows, not with the last
    /// frame, so it is never further off than this: 3 levels of 255 cannot be
    /// seen in a moving picture, and the cells whose colours only shimmer
    /// (area averaging makes every edge that moves by part of a pixel do that)
    /// stay as they are instead of costing ~35 bytes each.
    static let tolerance = 3

    /// Whether two cells (top and bottom 0xRRGGBB, packed as in `render`) differ
    /// by at most ``tolerance`` in every channel.
    @inline(__always)
    static func alike(_ a: UInt64, _ b: UInt64) -> Bool {
        guard a != UInt64.max else { return false }
        let upper = distance(Int(a >> 24), Int(b >> 24)), lower = distance(Int(a & 0xFF_FFFF), Int(b & 0xFF_FFFF))
        return max(upper, lower) <= UInt(2 * tolerance)
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

    /// One cell showing `upper` over `lower`, with whichever glyph needs the
    /// fewest colour codes given the colours set now. In truecolor a colour
    /// set that is within ``tolerance`` of the one wanted serves for it (the
    /// neighbours of a smooth picture often are); returns the colours the
    /// cell shows, which the next frame is compared with.
    private mutating func drawCell(_ out: inout ByteWriter, upper: Int, lower: Int) -> (upper: Int, lower: Int) {
        let fgUpper = near(fg, upper), fgLower = near(fg, lower)
        let bgUpper = near(bg, upper), bgLower = near(bg, lower)
        // A space or a full block when one colour set now serves both halves.
        if bgUpper && bgLower {
            out.append(byte: 0x20)
            return (bg, bg)
        }
        if fgUpper && fgLower {
            out.append("█")
            return (fg, fg)
        }
        if upper == lower || (truecolor && near(upper, lower)) {
            setColors(&out, foreground: nil, background: upper)
            bg = upper
            out.append(byte: 0x20)
            return (upper, upper)
        }
        // `▀` needs fg = upper, bg = lower; `▄` the other way round.
        let upperHalf = (fgUpper ? 0 : 1) + (bgLower ? 0 : 1)
        let lowerHalf = (fgLower ? 0 : 1) + (bgUpper ? 0 : 1)
        let flipped = lowerHalf < upperHalf
        let (wantFg, wantBg, keepFg, keepBg) = flipped ? (lower, upper, fgLower, bgUpper) : (upper, lower, fgUpper, bgLower)
        let foreground = keepFg ? fg : wantFg, background = keepBg ? bg : wantBg
        setColors(&out, foreground: keepFg ? nil : foreground, background: keepBg ? nil : background)
        fg = foreground
        bg = background
        if flipped {
            out.append("▄")
            return (background, foreground)
        }
        out.append("▀")
        return (foreground, background)
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
