import RecordKit
import FoundationEssentials
import Glibc
import LadderKit
import SposureKit

/// Ratings read from a file instead of asked (`--ratings script:FILE`), one
/// JSON object a line, blank lines skipped:
///
///     {"when":"before","suds":7,"expect_pct":80}
///     {"when":"after","peak":8,"suds":4,"happened":false}
///     {"t_ms":4200,"rated":8}
///
/// `before` and `after` give the answers (a field left out is a skipped
/// answer), once each; `rated` rates the GIF on screen at `t_ms` during play,
/// each line one rating (two equal ones close together are not taken for a
/// held key). A field that does not belong to its line is refused, never
/// dropped. On a virtual clock the same file gives the same events.
public struct RatingScript: Sendable, Equatable {
    /// The answers before the first hold, if the file gives them.
    public var before: RoundEvent.Rating?
    /// The answers after the round, if the file gives them.
    public var after: RoundEvent.Rating?
    /// Digits pressed during play: when, and which, in time order.
    public var rated: [(atMs: Int, rating: Int)]

    /// A script of these answers.
    public init(before: RoundEvent.Rating? = nil, after: RoundEvent.Rating? = nil, rated: [(atMs: Int, rating: Int)] = []) {
        self.before = before
        self.after = after
        self.rated = rated.sorted { $0.atMs < $1.atMs }
    }

    public static func == (a: RatingScript, b: RatingScript) -> Bool {
        a.before == b.before && a.after == b.after && a.rated.map(\.atMs) == b.rated.map(\.atMs)
            && a.rated.map(\.rating) == b.rated.map(\.rating)
    }

    /// Reads a ratings file; throws with the line and what is wrong.
    public static func load(path: String) throws(ScriptedHold.ScriptError) -> RatingScript {
        try parse(try ScriptLines.read(path: path), name: path)
    }

    /// Reads the text of a ratings file named `name` in messages.
    public static func parse(_ text: String, name: String) throws(ScriptedHold.ScriptError) -> RatingScript {
        try parse(try ScriptLines.records(Array(text.utf8), name: name), name: name)
    }

    /// The field names of a `rated` line (the others are ``RoundRating/Field``'s).
    public enum Field {
        public static let tMs = "t_ms", rated = "rated"
    }

    /// The fields each kind of line may have (`kind` too: a `rating` event
    /// copied from gif-play's output is a line of the script).
    private static let fields: [String: Set<String>] = [
        RoundRating.When.before.rawValue: ["kind", RoundRating.Field.when, RoundRating.Field.suds, RoundRating.Field.expectPct],
        RoundRating.When.after.rawValue: ["kind", RoundRating.Field.when, RoundRating.Field.peak, RoundRating.Field.suds,
                                          RoundRating.Field.happened],
        ratedLine: [Field.tMs, Field.rated],
    ]
    /// The name of a line that rates the GIF on screen.
    private static let ratedLine = "rated"

    private static func parse(_ lines: [(line: Int, record: JSONRecord)], name: String) throws(ScriptedHold.ScriptError) -> RatingScript {
        var script = RatingScript()
        var rated: [(Int, Int)] = []
        var seen: [RoundRating.When: Int] = [:]
        for (number, record) in lines {
            let fail = { (what: String) in ScriptedHold.ScriptError(message: "\(name):\(number): \(what)") }
            let kind = record.has(Field.rated) || record.has(Field.tMs) ? ratedLine : record.string(RoundRating.Field.when) ?? ""
            guard let allowed = fields[kind] else {
                throw fail("each line needs \"when\": \"before\" or \"after\", or \"t_ms\" and \"rated\"")
            }
            if let unknown = record.keys.first(where: { !allowed.contains($0) }) {
                let has = allowed.subtracting(["kind"]).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                throw fail("\"\(unknown)\" does not belong on a \"\(kind)\" line (it has \(has))")
            }
            if kind == ratedLine {
                guard record.has(Field.tMs) else { throw fail("a \"rated\" line needs \"t_ms\", when the digit is pressed (ms)") }
                guard let at = record.int(Field.tMs), at >= 0 else {
                    throw fail("\"t_ms\" must be a whole number of ms ≥ 0, found \(record.jsonText(Field.tMs) ?? "nothing")")
                }
                guard let digit = record.int(Field.rated), (0...9).contains(digit) else {
                    throw fail("\"rated\" must be a digit 0 to 9, found \(record.jsonText(Field.rated) ?? "nothing")")
                }
                rated.append((at, digit))
                continue
            }
            let (given, problems) = RoundRating.read(record)
            if let problem = problems.first { throw fail(problem) }
            guard let rating = given else { continue }  // (not reached: `when` was checked)
            if let first = seen[rating.when] {
                throw fail("a second \"\(rating.when.rawValue)\" line (the first is line \(first)); a round asks once")
            }
            seen[rating.when] = number
            if rating.when == .before { script.before = rating } else { script.after = rating }
        }
        script.rated = rated.sorted { $0.0 < $1.0 }.map { (atMs: $0.0, rating: $0.1) }
        return script
    }
}
