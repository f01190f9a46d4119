/// One displayed frame: the whole canvas after its images were composited.
public struct Frame: Sendable, Equatable {
    /// The frame's position in the animation, from 0.
    public var index: Int
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// The pixels: R, G, B, A bytes, rows top to bottom, not premultiplied.
    /// A GIF's alpha is 0 or 255; a scaled frame's may be anything between.
    public var rgba: [UInt8]
    /// How long the frame is shown, after the ``DelayPolicy``.
    public var delayMs: Int
    /// The delay written in the file for the image that ends the frame, in
    /// centiseconds (0 when it has none).
    public var delayCentiseconds: Int
    /// The image blocks composited into this frame, counted from 0 (empty
    /// for the transparent frame of a file with no image).
    public var images: Range<Int>

    /// A frame with the given fields.
    public init(index: Int, width: Int, height: Int, rgba: [UInt8], delayMs: Int, delayCentiseconds: Int, images: Range<Int>) {
        self.index = index
        self.width = width
        self.height = height
        self.rgba = rgba
        self.delayMs = delayMs
        self.delayCentiseconds = delayCentiseconds
        self.images = images
    }
}
