/// A frame fitted to the screen: RGB pixels, a cell's ``Symbols`` pixels a
/// cell for the block renderers, or real pixels for the graphics protocols.
public struct CellPicture: Sendable, Equatable {
    /// Width in pixels (cells × the cell's width for block characters).
    public var width: Int
    /// Height in pixels (text rows × the cell's height for block characters).
    public var height: Int
    /// RGB, 3 bytes a pixel, top row first, transparency already blended.
    public var rgb: [UInt8]
    /// The cells the picture covers when the terminal scales it (kitty,
    /// iTerm2: the pixels are the GIF's own, never enlarged); nil: its pixels
    /// are the screen's, one cell a ``Renderer/cell(pixels:)``.
    public var span: CellSpan?
    /// Which GIF and frame it is, so a renderer that keeps pictures in the
    /// terminal (kitty) sends each once; nil: not known, always sent.
    public var tag: FrameTag?

    /// A picture of `width` × `height` RGB pixels.
    public init(width: Int, height: Int, rgb: [UInt8], span: CellSpan? = nil) {
        (self.width, self.height, self.rgb, self.span) = (width, height, rgb, span)
    }
}

/// How many cells a picture covers.
public struct CellSpan: Sendable, Equatable {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// `columns` × `rows` cells (at least one of each).
    public init(columns: Int, rows: Int) { (self.columns, self.rows) = (max(1, columns), max(1, rows)) }
}

/// One frame of one GIF as fitted: the same tag is the same pixels.
public struct FrameTag: Sendable, Equatable, Hashable {
    /// The GIF as fitted (its source and the picture's size), see ``PreparedGIF``.
    public var gif: UInt64
    /// The frame's index, from 0.
    public var frame: Int

    /// A tag.
    public init(gif: UInt64, frame: Int) {
        self.gif = gif
        self.frame = frame
    }
}
