/// Draws pictures with the upper-half-block character `▀`: each cell shows two
/// pixels, the top one as the foreground colour and the bottom one as the
/// background, in 24-bit colour or the xterm 256-colour palette.
///
/// Only cells that changed since the last frame are written, with cursor
/// moves between runs and colour codes only when the colour changes, and the
/// whole frame goes out wrapped in synchronized-output mode (`?2026`).
public struct HalfBlockRenderer: Sendable {
    /// 24-bit colour, or the 256-colour palette.
    public let truecolor: Bool
    private var previous: [UInt64] = []
    private var previousWidth = 0
    private var previousOrigin = (row: 0, col: 0)

    /// A renderer for truecolor or 256-colour terminals.
    public init(truecolor: Bool) { self.truecolor = truecolor }

    /// Forgets what is on screen: the next frame is drawn whole.
    public mutating func invalidate() {
        previous = []
    }

    /// The bytes that put `picture` on screen with its top-left cell at
    /// (`row`, `col`) (1-based), changed cells only.
    public mutating func render(_ picture: CellPicture, row originRow: Int, col originCol: Int) -> [UInt8] {
        let cols = picture.width
        let rows = picture.height / 2
        let count = cols * rows
        if previous.count != count || previousWidth != cols || previousOrigin != (originRow, originCol) {
            previous = Array(repeating: UInt64.max, count: count)
            previousWidth = cols
            previousOrigin = (originRow, originCol)
        }
        var out = ByteWriter(capacity: 64 + count * 4)
        out.append("\u{1B}[?2026h")
        var fg = -1, bg = -1
        var cursorRow = -1, cursorCol = -1
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
                    previous[cell] = key
                    if cursorRow == row && cursorCol < col {
                        // Forward on the same row: shorter than an absolute move.
                        out.append("\u{1B}[")
                        if col - cursorCol > 1 { out.append(number: col - cursorCol) }
                        out.append(byte: UInt8(ascii: "C"))
                    } else if cursorRow != row || cursorCol != col {
                        out.moveTo(row: originRow + row, col: originCol + col)
                    }
                    if upper == lower {
                        if bg != lower { setColors(&out, foreground: nil, background: lower); bg = lower }
                        out.append(byte: 0x20)
                    } else {
                        setColors(&out, foreground: fg != upper ? upper : nil, background: bg != lower ? lower : nil)
                        fg = upper
                        bg = lower
                        out.append("▀")
                    }
                    cursorRow = row
                    cursorCol = col + 1
                }
            }
        }
        out.append("\u{1B}[0m\u{1B}[?2026l")
        return out.bytes
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
        if truecolor {
            out.append(background ? "48;2;" : "38;2;")
            out.append(number: color >> 16)
            out.append(byte: 0x3B)
            out.append(number: color >> 8 & 0xFF)
            out.append(byte: 0x3B)
            out.append(number: color & 0xFF)
        } else {
            out.append(background ? "48;5;" : "38;5;")
            out.append(number: color)
        }
    }
}

/// The xterm 256-colour palette: the 6×6×6 cube and the grey ramp.
public enum Palette256 {
    private static let levels = [0, 95, 135, 175, 215, 255]

    /// The nearest palette index (16–255) to a 0xRRGGBB colour.
    public static func index(rgb: Int) -> Int {
        let r = rgb >> 16 & 0xFF, g = rgb >> 8 & 0xFF, b = rgb & 0xFF
        let cr = cubeStep(r), cg = cubeStep(g), cb = cubeStep(b)
        let cube = 16 + 36 * cr + 6 * cg + cb
        let cubeDistance = square(levels[cr] - r) + square(levels[cg] - g) + square(levels[cb] - b)
        let average = (r + g + b) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + 10 * greyStep
        let greyDistance = square(grey - r) + square(grey - g) + square(grey - b)
        return greyDistance < cubeDistance ? 232 + greyStep : cube
    }

    private static func cubeStep(_ value: Int) -> Int {
        value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
    }

    private static func square(_ x: Int) -> Int { x * x }
}
