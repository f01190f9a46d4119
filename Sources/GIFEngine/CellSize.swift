/// How many image pixels one terminal cell shows.
public struct CellSize: Sendable, Equatable {
    /// Pixels across one cell.
    public var width: Int
    /// Pixels down one cell.
    public var height: Int

    /// A cell of `width`×`height` pixels (each at least 1).
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// The half-block renderer: `▀` with a foreground and a background color
    /// shows two pixels, one above the other, in each cell.
    public static let halfBlock = CellSize(width: 1, height: 2)

    /// Pixel renderers (sixel, kitty) when the terminal does not say its cell
    /// size: 8×16, the common default.
    public static let defaultPixels = CellSize(width: 8, height: 16)
}
