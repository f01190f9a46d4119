/// What a stage's reader hands to its workers, in input order.
public enum InputItem: @unchecked Sendable {
    /// A JSON object read from a line.
    case record(InputRecord)
    /// A line that is not a record; it becomes a `bad_json` error record.
    case bad(BadLine)
    /// A JSON object of a kind the stage does not handle (see ``Stage/parsedKinds``):
    /// checked, but not parsed, and written again as it came.
    case passThrough(line: Int, raw: [UInt8])

    /// The input line number.
    public var line: Int {
        switch self {
        case .record(let record): return record.line
        case .bad(let bad): return bad.line
        case .passThrough(let line, _): return line
        }
    }
}

/// A record with where it came from.
public struct InputRecord: @unchecked Sendable {
    /// The parsed record.
    public var record: JSONRecord
    /// The 1-based input line number.
    public var line: Int
    /// The line as read (without `\r\n`), written again as is when the record passes through.
    public var raw: [UInt8]

    /// A record read from line `line`.
    public init(record: JSONRecord, line: Int, raw: [UInt8]) {
        self.record = record
        self.line = line
        self.raw = raw
    }
}

/// A line that is not a JSON object, with why.
public struct BadLine: Sendable, Equatable {
    /// The 1-based input line number.
    public var line: Int
    /// The start of the line, as text (invalid UTF-8 replaced), cut to ``BadLine/textLimit`` code points.
    public var text: String
    /// Why it is not a record.
    public var reason: String

    /// How many characters of a bad line are kept.
    public static let textLimit = 120

    /// A bad line; `bytes` is cut and decoded for the record.
    public init(line: Int, bytes: some Collection<UInt8>, reason: String) {
        self.line = line
        let decoded = String(decoding: bytes.prefix(BadLine.textLimit * 4), as: UTF8.self)
        // Counted in code points, as JSON readers count (a Swift Character
        // may hold several: "\r\n", a letter and its accents).
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: decoded.unicodeScalars.prefix(BadLine.textLimit))
        text = String(cut)
        self.reason = reason
    }
}
