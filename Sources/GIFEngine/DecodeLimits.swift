/// Bounds on what one GIF may cost, checked before anything is allocated.
///
/// A GIF is untrusted input: a 40-byte file can declare a 65535×65535 screen,
/// and a few kilobytes of LZW data can expand to hundreds of millions of
/// pixels. Every limit here is checked before the memory or work it guards.
public struct DecodeLimits: Sendable, Equatable {
    /// The largest logical screen (canvas), in pixels. Default 4096×4096.
    public var maxCanvasPixels: Int
    /// The pixel budget of one file: every frame produced costs the canvas's
    /// pixel count, and every image decoded costs the pixels it decodes.
    /// Default 2^30, about 8000 frames of 480×270.
    public var maxTotalPixels: Int
    /// The most image blocks one file may hold. Default 100 000.
    public var maxImages: Int
    /// The largest file read from disk, in bytes. Default 256 MiB.
    public var maxFileBytes: Int

    /// Limits with the given values (the defaults when omitted).
    public init(
        maxCanvasPixels: Int = 4096 * 4096,
        maxTotalPixels: Int = 1 << 30,
        maxImages: Int = 100_000,
        maxFileBytes: Int = 256 << 20
    ) {
        self.maxCanvasPixels = maxCanvasPixels
        self.maxTotalPixels = maxTotalPixels
        self.maxImages = maxImages
        self.maxFileBytes = maxFileBytes
    }
}
