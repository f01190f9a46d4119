/// A frame fitted to the screen: RGB pixels, a cell's ``Symbols`` pixels a
/// cell for the block renderers, or real pixels for the graphics protocols.
public struct CellPicture: Sendable, Equatable {
    /// Width in pixels (cells × the cell's width for block characters).
    public var width: Int
    /// Height in pixels (text rows × the cell's height for block characters).
    public var height: Int
    /// RGB, 3 bytes a pixel, top row first, transparency already blended.
    public var rgb: [UInt8]

    /// A picture of `width` × `height` RGB pixels.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }
}
