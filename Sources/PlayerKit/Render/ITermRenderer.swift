/// Draws pictures with the iTerm2 inline image protocol (OSC 1337 `File=`),
/// which iTerm2, WezTerm, mintty and VS Code's terminal read: each frame a
/// PNG of the GIF's own pixels, which the terminal scales to the cells the
/// picture covers. The protocol keeps nothing by id, so every frame shown is
/// sent; a frame equal to the one on screen is not.
public struct ITermRenderer: Sendable {
    private var lastFrame: [UInt8] = []
    private var lastPlace: [Int] = []

    /// A renderer.
    public init() {}

    /// Forgets what is on screen.
    public mutating func invalidate() { lastFrame = [] }

    /// Appends the bytes that draw `picture` with its top-left cell at (`row`, `col`).
    public mutating func render(_ picture: CellPicture, row: Int, col: Int, into target: inout [UInt8]) {
        let place = [row, col, picture.span?.columns ?? 0, picture.span?.rows ?? 0]
        guard picture.rgb != lastFrame || place != lastPlace else { return }
        lastFrame = picture.rgb
        lastPlace = place
        let png = PNGEncoder.encode(rgb: picture.rgb, width: picture.width, height: picture.height)
        var out = Array("\u{1B}[\(row);\(col)H\u{1B}]1337;File=inline=1;size=\(png.count)".utf8)
        if let span = picture.span {
            out += Array(";width=\(span.columns);height=\(span.rows);preserveAspectRatio=0".utf8)
        }
        out += Array(";doNotMoveCursor=1:".utf8)
        png.withUnsafeBytes { Base64.append($0, to: &out) }
        out.append(0x07)
        target += out
    }
}
