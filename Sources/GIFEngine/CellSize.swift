/// How many image pixels one terminal cell shows, and their shape on screen.
public struct CellSize: Sendable, Equatable {
    /// Pixels across one cell.
    public var width: Int
    /// Pixels down one cell.
    public var height: Int
    /// The shape of one pixel on screen, width to height: 1:1 (square) for
    /// real pixels, half blocks and octants; quadrants and sextants split a
    /// cell about twice as tall as it is wide into 2×2 and 2×3, so their
    /// pixels are 1:2 and 3:4. Pictures are fitted so that they keep their
    /// aspect ratio on screen.
    public var aspectWidth: Int, aspectHeight: Int

    /// A cell of `width`×`height` pixels (each at least 1), each pixel
    /// `aspectWidth`:`aspectHeight` on screen.
    public init(width: Int, height: Int, aspectWidth: Int = 1, aspectHeight: Int = 1) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.aspectWidth = max(1, aspectWidth)
        self.aspectHeight = max(1, aspectHeight)
    }

    /// The half-block renderer: `▀` with a foreground and a background color
    /// shows two pixels, one above the other, in each cell.
    public static let halfBlock = CellSize(width: 1, height: 2)

    /// Quadrants: 2×2 pixels a cell, each twice as tall as wide.
    public static let quadrant = CellSize(width: 2, height: 2, aspectWidth: 1, aspectHeight: 2)

    /// Sextants: 2×3 pixels a cell, each 3:4.
    public static let sextant = CellSize(width: 2, height: 3, aspectWidth: 3, aspectHeight: 4)

    /// Octants: 2×4 pixels a cell, square.
    public static let octant = CellSize(width: 2, height: 4)

    /// Pixel renderers (sixel, kitty) when the terminal does not say its cell
    /// size: 8×16, the common default.
    public static let defaultPixels = CellSize(width: 8, height: 16)
}
