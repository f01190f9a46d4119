/// The picture formats the engine decodes, told apart by their first bytes
/// (never by a file's name or a server's word for it).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// `GIF87a` or `GIF89a`: giflib, else the fallback LZW decoder.
    case gif
    /// `FF D8 FF`: libjpeg-turbo's TurboJPEG API.
    case jpeg
    /// The eight-byte PNG signature: libpng.
    case png
    /// `RIFF`, four bytes of size, `WEBP`: libwebp (still or animated).
    case webp

    /// The bytes a file must start with for ``sniff(_:)`` to tell its format.
    public static let sniffedBytes = 12

    /// The format `head` (a file's first bytes, at least ``sniffedBytes`` of
    /// them for every format to be told) starts as; nil for none of the four.
    public static func sniff(_ head: some Collection<UInt8>) -> ImageFormat? {
        let bytes = Array(head.prefix(sniffedBytes))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    /// The format's MIME type (`image/gif`, `image/jpeg`, `image/png`, `image/webp`).
    public var mime: String { "image/\(rawValue)" }

    /// The format's name for people: `GIF`, `JPEG`, `PNG`, `WebP`.
    public var name: String { self == .webp ? "WebP" : rawValue.uppercased() }

    /// The four formats, for messages: "GIF, JPEG, PNG or WebP".
    public static let names = "GIF, JPEG, PNG or WebP"
}
