import GIFEngine

/// What turns a fitted picture into the bytes that draw it: block characters
/// (``BlockRenderer``: half blocks, quadrants, sextants, octants), or real
/// pixels (``KittyRenderer``, ``ITermRenderer``, ``SixelRenderer``).
///
/// A renderer remembers what it drew, to send only what changed; ``Screen``
/// tells it when the screen was cleared or written over.
public protocol Renderer: Sendable {
    /// The pixels of one cell that pictures are fitted to, given the
    /// terminal's own cell size in pixels when it says (`pixels`).
    func cell(pixels: CellSize?) -> CellSize

    /// Whether the terminal scales the picture to the cells it covers
    /// (``CellPicture/span``): it is then fitted no larger than the GIF.
    var scalesPictures: Bool { get }

    /// Whether a GIF smaller than the screen is enlarged to fill it (every
    /// renderer that fits pictures itself does: sixel fills the area the
    /// cells would, within the terminal's largest image).
    var enlargesPictures: Bool { get }

    /// Appends to `target` the bytes that draw `picture` with its top-left
    /// cell at (`row`, `col`) (1-based); `rawOutput`: CR and LF reach the
    /// terminal as plain cursor moves (see ``Terminal/rawOutput``).
    mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8])

    /// Takes what must go out before the frame and outside synchronized
    /// output: pixels sent to be kept (kitty), too many for its buffer.
    mutating func takeUploads() -> [UInt8]

    /// Forgets what is on screen: the next picture is drawn whole.
    mutating func invalidate()

    /// The whole screen was cleared (`CSI 2J`): what ``invalidate()``
    /// forgets, and whatever the terminal drops with it (kitty's images).
    mutating func screenCleared()

    /// The cell size pictures are now fitted with (``cell(pixels:)`` of the terminal's).
    mutating func use(cell: CellSize)

    /// Forgets the colours set: someone else wrote colour codes (or a reset).
    mutating func forgetColors()
}

extension Renderer {
    /// Pixels: the terminal's cell size, or 8×16 when it does not say.
    public func cell(pixels: CellSize?) -> CellSize { pixels ?? .defaultPixels }
    /// Pictures are fitted to the screen's own pixels.
    public var scalesPictures: Bool { false }
    /// Pictures fill the screen.
    public var enlargesPictures: Bool { true }
    /// Nothing to send ahead.
    public mutating func takeUploads() -> [UInt8] { [] }
    /// Nothing to forget: pictures carry their colours.
    public mutating func forgetColors() {}
    /// The cell size does not matter.
    public mutating func use(cell: CellSize) {}
    /// A clear drops only what is on screen.
    public mutating func screenCleared() { invalidate() }
}

extension BlockRenderer: Renderer {
    /// The pixels of its ``Symbols``, shaped as the terminal's cells are
    /// when it says their size in pixels (`pixels`), else as cells twice as
    /// tall as wide (issue 29 #6: 9×20 cells stretched pictures 4–11 %).
    public func cell(pixels: CellSize?) -> CellSize { Self.cell(symbols.cell, shapedBy: pixels) }

    /// `grid`'s pixels a cell, each the shape `pixels` (one cell's size on
    /// screen) gives it: a `pixels.width / grid.width` by
    /// `pixels.height / grid.height` rectangle; `grid` as it is without `pixels`.
    public static func cell(_ grid: CellSize, shapedBy pixels: CellSize?) -> CellSize {
        guard let pixels else { return grid }
        var (across, down) = (pixels.width * grid.height, pixels.height * grid.width)
        var (a, b) = (across, down)
        while b != 0 { (a, b) = (b, a % b) }
        (across, down) = (across / max(1, a), down / max(1, a))
        return CellSize(width: grid.width, height: grid.height, aspectWidth: across, aspectHeight: down)
    }

    /// ``render(_:row:col:appendingTo:)``, moving with CR and LF only on raw output.
    public mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8]) {
        lineFeeds = rawOutput
        render(picture, row: row, col: col, appendingTo: &target)
    }
}

extension KittyRenderer: Renderer {
    /// kitty scales the GIF's own pixels to the cells.
    public var scalesPictures: Bool { true }

    /// ``render(_:row:col:into:)``.
    public mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8]) {
        render(picture, row: row, col: col, into: &target)
    }
}

extension ITermRenderer: Renderer {
    /// The terminal scales the GIF's own pixels to the cells.
    public var scalesPictures: Bool { true }

    /// ``render(_:row:col:into:)``.
    public mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8]) {
        render(picture, row: row, col: col, into: &target)
    }
}

extension SixelRenderer: Renderer {

    /// Changes start on cell rows of this height.
    public mutating func use(cell: CellSize) { cellHeight = cell.height }

    /// ``render(_:row:col:into:)``.
    public mutating func draw(_ picture: CellPicture, row: Int, col: Int, rawOutput: Bool, into target: inout [UInt8]) {
        render(picture, row: row, col: col, into: &target)
    }
}
