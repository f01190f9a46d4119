import SposureKit

/// The `summary` record of `gif-play frames`: the whole GIF, written last
/// when the file decodes whole.
///
/// ```json
/// {"kind":"summary","file":"balls.gif","frames":150,"width":480,"height":270,"loop_count":0,"duration_ms":4500,"comment":"made with giflib"}
/// ```
public struct SummaryRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "summary"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let file = "file", frames = "frames", width = "width", height = "height"
        public static let loopCount = "loop_count", durationMs = "duration_ms", comment = "comment"
    }

    /// The FILE argument, as given.
    public var file: String
    /// Frame records written.
    public var frames: Int
    /// The logical screen (canvas), unscaled.
    public var width: Int
    public var height: Int
    /// The loop extension's count as written (0: forever); nil without one (plays once).
    public var loopCount: Int?
    /// The sum of the frames' `delay_ms`.
    public var durationMs: Int
    /// The last comment extension, when there is one.
    public var comment: String?

    /// A summary's record.
    public init(file: String, frames: Int, width: Int, height: Int, loopCount: Int?, durationMs: Int, comment: String? = nil) {
        (self.file, self.frames, self.width, self.height) = (file, frames, width, height)
        (self.loopCount, self.durationMs, self.comment) = (loopCount, durationMs, comment)
    }
}

extension SummaryRecord {
    /// Reads a `summary` record; nil when it is of another kind or a field is
    /// missing or of another type (`loop_count` may be null).
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let file = record.string(Field.file), let frames = record.int(Field.frames),
              let width = record.int(Field.width), let height = record.int(Field.height),
              let durationMs = record.int(Field.durationMs) else { return nil }
        let loopCount = record.int(Field.loopCount)
        guard loopCount != nil || record.jsonText(Field.loopCount) == "null" else { return nil }
        self.init(file: file, frames: frames, width: width, height: height, loopCount: loopCount, durationMs: durationMs,
                  comment: record.string(Field.comment))
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.file, file), (Field.frames, frames), (Field.width, width), (Field.height, height),
                    (Field.loopCount, loopCount), (Field.durationMs, durationMs), (Field.comment, comment.omittedWhenNil)])
        return record
    }
}
