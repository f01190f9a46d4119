import GIFEngine

/// How pictures are laid out on the screen now: the room for the picture and
/// how many pixels a cell holds.
public struct ScreenLayout: Sendable, Equatable {
    /// Columns for the picture.
    public var columns: Int
    /// Rows for the picture (the status line not included).
    public var rows: Int
    /// Pixels a cell: 1×2 for half blocks, the real cell size for graphics.
    public var cell: CellSize
    /// What transparent areas are laid over.
    public var background: RGBColor
    /// The terminal scales pictures to their cells (kitty, iTerm2): a GIF is
    /// fitted no larger than its own pixels, and covers the cells it would fill.
    public var terminalScales: Bool
    /// A GIF smaller than the room is enlarged to fill it (every renderer that fits pictures itself, sixel too).
    public var enlarge: Bool

    /// A layout of `columns` × `rows` cells of `cell` pixels.
    public init(columns: Int, rows: Int, cell: CellSize, background: RGBColor, terminalScales: Bool = false, enlarge: Bool = true) {
        self.enlarge = enlarge
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.cell = cell
        self.background = background
        self.terminalScales = terminalScales
    }
}
