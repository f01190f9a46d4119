import GIFEngine

/// What turns a fitted picture into the bytes that draw it: block characters
/// (``BlockRenderer``), or real pixels (``GraphicsRenderer``).
///
/// A renderer remembers what it drew, to send only what changed; ``Screen``
/// tells it when the screen was cleared or written over.
public protocol Renderer: Sendable {
    /// The pixels of one cell that pictures are fitted to, given the
    /// terminal's own cell size in pixels when it says (`pixels`).
    func cell(pixels: CellSize?) -> CellSize

    /// Appends to `target` the bytes that draw `picture` with its top-left
    /// cell at (`row`, `col`) (1-based); `rawOutput`: CR and LF reach the
    /// terminal as plain cursor moves (see ``Terminal/rawOutput``).
    mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8])

    /// Forgets what is on screen: the next picture is drawn whole.
    mutating func invalidate()

    /// Forgets the colours set: someone else wrote colour codes (or a reset).
    mutating func forgetColors()
}

extension BlockRenderer: Renderer {
    /// The pixels of its ``Symbols``, whatever the terminal's cell size.
    public func cell(pixels: CellSize?) -> CellSize { symbols.cell }

    /// ``render(_:row:col:appendingTo:)``, moving with CR and LF only on raw output.
    public mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8]) {
        lineFeeds = rawOutput
        render(picture, row: row, col: col, appendingTo: &target)
    }
}

extension GraphicsRenderer: Renderer {
    /// The terminal's cell size in pixels, or 8×16 when it does not say.
    public func cell(pixels: CellSize?) -> CellSize { pixels ?? .defaultPixels }

    /// ``render(_:row:col:)``, appended.
    public mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8]) {
        target += render(picture, row: row, col: col)
    }

    /// Nothing to forget: pictures carry their colours.
    public mutating func forgetColors() {}
}
