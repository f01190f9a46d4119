/// What a picture says about itself, known before its first frame is
/// decoded (a GIF's fields; ``PictureDecoder`` fills them for the other formats).
public struct GIFInfo: Sendable, Equatable {
    /// `GIF87a` or `GIF89a`; for another format its name (`JPEG`, `PNG`, `WebP`).
    public var version: String
    /// The logical screen (canvas) width in pixels.
    public var width: Int
    /// The logical screen (canvas) height in pixels.
    public var height: Int
    /// The image blocks found before any fault in the file's structure.
    public var imageCount: Int
    /// The frames those images make (1 for a file with no image); fewer come
    /// out when an image's data turns out to be corrupt.
    public var frameCount: Int
    /// The loop count of the last NETSCAPE2.0 or ANIMEXTS1.0 extension, as
    /// written: 0 means forever, n means n more times after the first; nil
    /// when there is none (the animation plays once).
    public var loopCount: Int?
    /// The last comment extension's bytes, when there is one (at most 64 KiB kept).
    public var commentBytes: [UInt8]?
    /// The background color index of the logical screen descriptor (unused
    /// when compositing: disposal clears to transparent, as browsers do).
    public var backgroundIndex: Int

    /// The comment as text: UTF-8 when it is valid UTF-8, else Latin-1 (one
    /// character per byte), as the GIF spec's 7-bit ASCII and real files' mix
    /// of encodings suggest.
    public var comment: String? {
        guard let bytes = commentBytes else { return nil }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
