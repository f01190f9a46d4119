import SposureKit

/// The `error` record of the stream: one record (or line) a stage could not
/// handle. Every stage writes it the same way and passes on the ones it
/// reads; `score` counts them by ``code``.
///
/// ```json
/// {"kind":"error","id":"a","url":"https://media.example/a.gif","stage":"fetch-images","code":"http_404","error":"HTTP 404","ms":12}
/// {"kind":"error","stage":"fetch-images","code":"bad_json","line":4,"text":"this line is not JSON","error":"not a JSON object ('[' or '{' expected near 'this')"}
/// {"kind":"error","stage":"gif-play","code":"decode_failed","error":"image 3: invalid LZW code 4011 (at byte 5120)","file":"a.gif","frames":2}
/// ```
///
/// A record that failed keeps every field in its place, `kind` changed
/// there, and the error's own fields follow (each written over its place
/// when the record already has it: an error record made again stays one
/// record). A line that is not a record has no fields to keep: its error says
/// its number and how it starts (``init(badLine:stage:)``).
///
/// A record read back keeps every field it has, in order, so an error
/// record comes back byte for byte.
public struct ErrorRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "error"
    /// The code of a line that is not a JSON object.
    public static let badJSON = "bad_json"

    /// The field names, spelled once, in the order they are appended.
    public enum Field {
        public static let kind = "kind", stage = "stage", code = "code", line = "line", text = "text", error = "error"
        public static let attempts = "attempts", ms = "ms", file = "file", frames = "frames", remembered = "remembered"
    }

    /// The stage that made it (`fetch-images`, `giphy-pages list`, …).
    public var stage: String
    /// What went wrong, for machines (`http_404`, `bad_json`, …: docs/stream-format.md).
    public var code: String
    /// What went wrong, for people (the `error` field; may quote remote text).
    public var message: String
    /// `bad_json`: the 1-based input line number.
    public var line: Int?
    /// `bad_json`: the start of the line.
    public var text: String?
    /// Requests tried, when more than one (`fetch-images`, `giphy-pages list`).
    public var attempts: Int?
    /// Time spent on the record (`fetch-images`).
    public var ms: Int?
    /// `gif-play frames`: the file that did not decode whole.
    public var file: String?
    /// `gif-play frames`: frame records written before the fault.
    public var frames: Int?
    /// `fetch-images`: when the failure the cache remembers happened (the URL was not fetched again).
    public var remembered: String?
    /// Every field of the record in its place, `kind` among them: the
    /// failed record's. The error's own are written over their places here
    /// (a copy: never shared).
    private let fields: JSONRecord

    /// The error of `record` (copied: `record` is left as it is).
    public init(failed record: JSONRecord, stage: String, code: String, message: String) {
        self.init(fields: record.copy(), stage: stage, code: code, message: message)
    }

    /// An error of no input record (`gif-play frames`' file).
    public init(stage: String, code: String, message: String) {
        self.init(fields: JSONRecord(), stage: stage, code: code, message: message)
    }

    /// The `bad_json` error of a line that is not a JSON object.
    public init(badLine bad: BadLine, stage: String) {
        self.init(fields: JSONRecord(), stage: stage, code: Self.badJSON, message: bad.reason)
        line = bad.line
        text = bad.text
    }

    private init(fields: JSONRecord, stage: String, code: String, message: String) {
        self.fields = fields
        self.stage = stage
        self.code = code
        self.message = message
    }

    /// Reads an `error` record; nil when it is of another kind or lacks a
    /// string `stage`, `code` or `error` (every stage writes all three).
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let stage = record.string(Field.stage), let code = record.string(Field.code),
              let message = record.string(Field.error) else { return nil }
        self.init(fields: record.copy(), stage: stage, code: code, message: message)
        line = record.int(Field.line)
        text = record.string(Field.text)
        attempts = record.int(Field.attempts)
        ms = record.int(Field.ms)
        file = record.string(Field.file)
        frames = record.int(Field.frames)
        remembered = record.string(Field.remembered)
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = fields.copy()
        write(over: record)
        return record
    }

    /// Turns `record` itself into this error: `kind` changed in place, and
    /// each of the error's fields written over its place, else appended.
    public func write(over record: JSONRecord) {
        record.set([(Field.kind, Self.kind), (Field.stage, stage), (Field.code, code), (Field.line, line.omittedWhenNil),
                    (Field.text, text.omittedWhenNil), (Field.error, message), (Field.attempts, attempts.omittedWhenNil),
                    (Field.ms, ms.omittedWhenNil), (Field.file, file.omittedWhenNil), (Field.frames, frames.omittedWhenNil),
                    (Field.remembered, remembered.omittedWhenNil)])
    }

    /// Two error records are equal when they write the same record.
    public static func == (lhs: ErrorRecord, rhs: ErrorRecord) -> Bool {
        lhs.record().serialized() == rhs.record().serialized()
    }
}
