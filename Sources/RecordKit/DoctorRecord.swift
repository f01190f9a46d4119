import SposureKit

/// The `doctor` record: what `sposure doctor` checked, for a program
/// (docs/stream-format.md, front-door records). FrontDoorKit's `Doctor`
/// makes the checks; this type writes them and reads them back.
///
/// ```json
/// {"kind":"doctor","playable":false,"checks":[{"area":"keys","ok":false,"mark":"fail","text":"no key is set: a live round needs one","fix":"set one of the keys"}]}
/// ```
public struct DoctorRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "doctor"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let kind = "kind", playable = "playable", checks = "checks"
        /// A check's.
        public static let area = "area", ok = "ok", mark = "mark", text = "text", fix = "fix"
    }

    /// One check, in the order the text shows them.
    public struct Check: Sendable, Equatable {
        /// tools, libraries, keys, folders, history, terminal.
        public var area: String
        /// `ok`, `fail` or `info`.
        public var mark: String
        public var text: String, fix: String?
        /// Whether it did not fail.
        public var ok: Bool { mark != Self.fail }
        /// The mark of a check that failed.
        public static let fail = "fail"

        /// A check's line.
        public init(area: String, mark: String, text: String, fix: String?) {
            (self.area, self.mark, self.text, self.fix) = (area, mark, text, fix)
        }
    }

    /// Whether a round can be played: no check failed.
    public var playable: Bool
    public var checks: [Check]

    /// The checks and the verdict.
    public init(playable: Bool, checks: [Check]) {
        self.playable = playable
        self.checks = checks
    }

    /// Reads a `doctor` record; nil when it is of another kind or lacks a
    /// boolean `playable`. A check's missing string reads as empty.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let playable = record.bool(Field.playable) else { return nil }
        self.playable = playable
        checks = (record.objects(Field.checks) ?? []).map {
            Check(area: $0.string(Field.area) ?? "", mark: $0.string(Field.mark) ?? "", text: $0.string(Field.text) ?? "",
                  fix: $0.string(Field.fix))
        }
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([(Field.kind, Self.kind), (Field.playable, playable)])
        for check in checks {
            record.appendObject(Field.checks).set([(Field.area, check.area), (Field.ok, check.ok), (Field.mark, check.mark),
                                                   (Field.text, check.text), (Field.fix, check.fix)])
        }
        return record
    }
}
