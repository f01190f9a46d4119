import SposureKit

/// The `frame` record of `gif-play frames`: one displayed frame, as the
/// player composites it.
///
/// ```json
/// {"kind":"frame","index":0,"delay_ms":100,"width":480,"height":270,"sha256":"8ee2c780…","path":"frames/frame-0000.pam"}
/// ```
public struct FrameRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "frame"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let index = "index", delayMs = "delay_ms", width = "width", height = "height"
        public static let sha256 = "sha256", path = "path"
    }

    /// The frame's position, from 0.
    public var index: Int
    /// How long it is shown (the file's delay, or the floor for a too-short one).
    public var delayMs: Int
    /// Its size in pixels: the canvas, or the fitted size with `--size`.
    public var width: Int
    public var height: Int
    /// Hex SHA-256 of its RGBA bytes (after scaling).
    public var sha256: String
    /// The frame file written (`--out`); nil when none is.
    public var path: String?

    /// A frame's record.
    public init(index: Int, delayMs: Int, width: Int, height: Int, sha256: String, path: String? = nil) {
        (self.index, self.delayMs, self.width, self.height, self.sha256, self.path) = (index, delayMs, width, height, sha256, path)
    }
}

extension FrameRecord {
    /// Reads a `frame` record; nil when it is of another kind or a field is
    /// missing or of another type.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let index = record.int(Field.index), let delayMs = record.int(Field.delayMs),
              let width = record.int(Field.width), let height = record.int(Field.height),
              let sha256 = record.string(Field.sha256) else { return nil }
        self.init(index: index, delayMs: delayMs, width: width, height: height, sha256: sha256, path: record.string(Field.path))
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.index, index), (Field.delayMs, delayMs), (Field.width, width),
                    (Field.height, height), (Field.sha256, sha256), (Field.path, path.omittedWhenNil)])
        return record
    }
}
