/// Why a GIF could not be decoded, or not completely.
///
/// A decoder that throws has already produced every frame it could before the
/// fault; the error says what stopped it, with a stable ``code`` for records.
public struct GIFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of fault this is.
    public enum Kind: Sendable, Equatable {
        /// The bytes do not start with `GIF87a` or `GIF89a`.
        case notGIF
        /// The file ends in the middle of a block.
        case truncated
        /// The structure or the LZW data is invalid.
        case corrupt
        /// A limit (canvas size, pixel budget, image count, file size) would be passed.
        case tooLarge
        /// The file cannot be opened.
        case notFound
        /// The file cannot be read.
        case unreadable
    }

    /// What kind of fault this is.
    public var kind: Kind
    /// What happened, for people.
    public var message: String
    /// The byte offset of the fault in the file, when it has one.
    public var offset: Int?

    /// A fault of `kind`, described by `message`, at `offset` when known.
    public init(_ kind: Kind, _ message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// The stable machine code used in `error` records.
    public var code: String {
        switch kind {
        case .notGIF: "not_gif"
        case .truncated, .corrupt: "decode_failed"
        case .tooLarge: "too_large"
        case .notFound: "not_found"
        case .unreadable: "read_failed"
        }
    }

    /// The message, for people.

    /// The message, with the byte offset when there is one.
    public var description: String {
        if let offset { return "\(message) (at byte \(offset))" }
        return message
    }
}
