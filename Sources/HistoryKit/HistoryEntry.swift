import RecordKit
import LadderKit
import SposureKit

/// One line of the history file: a round as it is kept for lifetime statistics.
///
/// ```json
/// {"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":8600,"longest_hold_ms":8600,"holds":1,
///  "gifs_shown":5,"gifs_completed":4,"stalls":1,"stall_ms":120,"errors":1,"points":106,
///  "incomplete":false,"duration_ms":9800,"sections":{"spiders":8600},
///  "distress_before":7,"distress_after":4}
/// ```
///
/// Its totals (``RoundTotals``) read as its own fields: `entry.exposedMs`.
@dynamicMemberLookup
public struct HistoryEntry: Sendable, Equatable {
    /// When the round started (UTC, ISO 8601), else when it was scored.
    public var at: String
    /// What the round's events added up to.
    public var totals: RoundTotals
    /// Error records.
    public var errors = 0
    /// Points (see ``Points``).
    public var points = 0
    /// Whether the stream ended without a session end.
    public var incomplete = false
    /// The round's length on the player's clock.
    public var durationMs = 0
    /// Exposure by section, in order.
    public var sections: [Section] = []
    /// The distress ratings, when given.
    public var distress: Distress?
    /// The ladder, rung and re-test of a ladder round (`ladder`, `rung`, `rung_suds`, `retest`).
    public var ladder: LadderTag?
    /// The distress before the round, 0–10: the pair's (`--distress`), else the player's answer.
    public var sudsBefore: Int? { distress?.before ?? ratings.sudsBefore }
    /// The distress after the round, 0–10, the same way.
    public var sudsAfter: Int? { distress?.after ?? ratings.sudsAfter }

    /// The player's ratings (`distress_before`, `expect_pct`, `peak`, `distress_after`, `happened`).
    public var ratings = RoundRatings()
    /// How a ladder round ended (`reason`), for the step-down rule.
    public var reason: String?
    /// The credits of the pictures shown that had one (written last, only when there are some).
    public var credits: [PictureCredit] = []

    /// A section's exposure in one round.
    public struct Section: Sendable, Equatable {
        /// The section's name (remote text).
        public var name: String
        /// Its exposure.
        public var exposedMs: Int

        /// A section's exposure.
        public init(name: String, exposedMs: Int) {
            self.name = name
            self.exposedMs = exposedMs
        }
    }

    /// A total, as the entry's own field.
    public subscript<T>(dynamicMember key: WritableKeyPath<RoundTotals, T>) -> T {
        get { totals[keyPath: key] }
        set { totals[keyPath: key] = newValue }
    }

    /// An entry with the given numbers.
    public init(at: String, exposedMs: Int, longestHoldMs: Int = 0, holds: Int = 0, gifsShown: Int = 0,
                gifsCompleted: Int = 0, stalls: Int = 0, stallMs: Int = 0, errors: Int = 0, points: Int? = nil,
                incomplete: Bool = false, durationMs: Int = 0, sections: [Section] = [], distress: Distress? = nil,
                ladder: LadderTag? = nil, ratings: RoundRatings = RoundRatings(), reason: String? = nil) {
        self.init(at: at, totals: RoundTotals(exposedMs: exposedMs, longestHoldMs: longestHoldMs, holds: holds, gifsShown: gifsShown,
                                              gifsCompleted: gifsCompleted, stalls: stalls, stallMs: stallMs),
                  errors: errors, points: points, incomplete: incomplete, durationMs: durationMs, sections: sections,
                  distress: distress, ladder: ladder, ratings: ratings, reason: reason)
    }

    /// An entry of `totals` and the rest.
    public init(at: String, totals: RoundTotals, errors: Int = 0, points: Int? = nil,
                incomplete: Bool = false, durationMs: Int = 0, sections: [Section] = [], distress: Distress? = nil,
                ladder: LadderTag? = nil, ratings: RoundRatings = RoundRatings(), reason: String? = nil) {
        self.at = at
        self.totals = totals
        self.errors = errors
        self.points = points ?? Points.points(exposedMs: totals.exposedMs, gifsCompleted: totals.gifsCompleted)
        self.incomplete = incomplete
        self.durationMs = durationMs
        self.sections = sections
        self.distress = distress
        self.ladder = ladder
        self.ratings = ratings
        self.reason = reason
    }

    /// The record's `kind`.
    public static let kind = "round"

    /// The field names of a history line, spelled once (the totals' are ``RoundTotals/Field``'s,
    /// the ladder tag's ``LadderTag/Field``'s).
    public enum Field {
        public static let kind = "kind", at = "at", exposedMs = RoundTotals.Field.exposedMs, errors = "errors", points = "points"
        public static let incomplete = "incomplete", durationMs = "duration_ms", sections = "sections"
        public static let distressBefore = "distress_before", distressAfter = "distress_after", reason = "reason"
        public static let expectPct = "expect_pct", peak = "peak", happened = "happened"
    }

    /// The longest time a round's field may hold, in ms: a year.
    public static let maxMs = 31_536_000_000
    /// The most any count of a round may be (sums of a million rounds stay far inside Int).
    public static let maxCount = 1_000_000_000_000

    /// Why `record` is no round of the history, in words (nil: it is one): not
    /// a `round`, no whole `exposed_ms`, or a time or count out of its range
    /// (a hand edit; the sums over the history would overflow).
    public static func problem(_ record: JSONRecord) -> String? {
        guard record.kind == Self.kind else { return "not a round record" }
        guard let exposed = record.int(Field.exposedMs) else { return "a round without a whole exposed_ms" }
        func outside(_ key: String, _ value: Int?, _ limit: Int, _ words: String) -> String? {
            guard let value, !(0...limit).contains(value) else { return nil }
            return "\(key) \(value) is outside 0 to \(words)"
        }
        if let problem = outside(Field.exposedMs, exposed, maxMs, "a year") { return problem }
        for key in RoundTotals.Field.times + [Field.durationMs] {
            if let problem = outside(key, record.int(key), maxMs, "a year") { return problem }
        }
        for key in RoundTotals.Field.counts + [Field.errors, Field.points] {
            if let problem = outside(key, record.int(key), maxCount, "10^12") { return problem }
        }
        if let sections = record.object(Field.sections) {
            for key in sections.keys {
                if let problem = outside("sections' exposed_ms", sections.int(key), maxMs, "a year") { return problem }
            }
        }
        return nil
    }

    /// Reads a history line's record; nil when ``problem(_:)`` finds one.
    /// Other fields are optional (0, false or absent when missing), so older or hand-written lines still count.
    public init?(record: JSONRecord) {
        guard Self.problem(record) == nil, let exposed = record.int(Field.exposedMs) else { return nil }
        at = record.string(Field.at) ?? ""
        totals = RoundTotals(record: record)
        errors = record.int(Field.errors) ?? 0
        points = record.int(Field.points) ?? Points.points(exposedMs: exposed, gifsCompleted: totals.gifsCompleted)
        incomplete = record.bool(Field.incomplete) ?? false
        durationMs = record.int(Field.durationMs) ?? 0
        if let object = record.object(Field.sections) {
            sections = object.keys.compactMap { key in object.int(key).map { Section(name: key, exposedMs: $0) } }
        }
        if let before = record.int(Field.distressBefore), let after = record.int(Field.distressAfter) {
            distress = Distress(before: before, after: after)
        }
        ladder = LadderTag(record: record)
        reason = record.string(Field.reason)
        credits = PictureCredit.list(in: record)
        // Both ratings are `distress`; one alone (the other skipped) stays in `ratings`.
        let lone: (String) -> Int? = { [distress] key in
            distress == nil ? record.int(key).flatMap { Distress.scale.contains($0) ? $0 : nil } : nil
        }
        // A rating outside its scale is dropped, as a distress one is (the round counts):
        // their sums over the history stay far inside Int.
        let rated: (String, ClosedRange<Int>) -> Int? = { key, range in record.int(key).flatMap { range.contains($0) ? $0 : nil } }
        ratings = RoundRatings(sudsBefore: lone(Field.distressBefore), expectPct: rated(Field.expectPct, 0...100), peak: rated(Field.peak, RoundRating.scale),
                               sudsAfter: lone(Field.distressAfter), happened: record.bool(Field.happened))
    }

    /// The calendar date of `at` (`2026-11-21`), when it starts with one.
    public var date: String? { Self.date(of: at) }

    /// The calendar date an `at` starts with (`2026-11-21`), if any.
    public static func date(of at: String) -> String? {
        let prefix = at.prefix(10)
        let bytes = Array(prefix.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) })
        else { return nil }
        return String(prefix)
    }

    /// The entry as its history record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set(Field.kind, Self.kind)
        record.set(Field.at, at)
        totals.write(to: record)
        record.set(Field.errors, errors)
        record.set(Field.points, points)
        record.set(Field.incomplete, incomplete)
        record.set(Field.durationMs, durationMs)
        let object = record.setObject(Field.sections)
        for section in sections { object.set(section.name, section.exposedMs) }
        record.set(Field.distressBefore, sudsBefore)
        record.set(Field.distressAfter, sudsAfter)
        // A ladder round's fields come after, so rounds without a ladder are kept as before.
        if let ladder {
            ladder.write(to: record)
            record.set(Field.reason, reason)
        }
        if let expect = ratings.expectPct { record.set(Field.expectPct, expect) }
        if let peak = ratings.peak { record.set(Field.peak, peak) }
        if let happened = ratings.happened { record.set(Field.happened, happened) }
        PictureCredit.write(credits, to: record)
        return record
    }
}
