/// A frame fitted to the screen: RGB pixels, two pixel rows a text row for the
/// half-block renderers, or real pixels for the graphics protocols.
public struct CellPicture: Sendable, Equatable {
    /// Width in pixels (= cells for half blocks).
    public var width: Int
    /// Height in pixels (= 2 × text rows for half blocks).
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
