import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import SposureKit

/// `score ladder NAME`: the ladder as a table, one row a rung, with what the
/// history says of each, and the next rung marked; off a terminal, the
/// `ladder` record.
///
/// ```json
/// {"kind":"ladder","name":"spiders","title":"Spiders","source":"built-in","rung":2,"complete":false,"next_rung":2,"next_retest":false,"why":"…",
///  "rungs":[{"rung":1,"label":"spider cartoon","suds":10,"still":true,"rounds":2,"best_exposed_ms":70000,"last_distress":3,"mastered_on":"2026-11-21T10:00:00Z","retest_due":"2026-11-28T10:00:00Z"},…]}
/// ```
public struct LadderTable: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "ladder"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let name = "name", title = "title", source = "source", rung = "rung", complete = "complete"
        public static let nextRung = "next_rung", nextRetest = "next_retest", why = "why", rungs = "rungs"
    }

    /// The ladder.
    public var ladder: Ladder
    /// Where the ladder came from: `built-in` or the file's path.
    public var source: String
    /// The rules replayed over the history.
    public var progress: LadderProgress
    /// What a round without `--rung` plays now.
    public var next: LadderProgress.Pick
    /// One row a rung.
    public var rows: [Row]

    /// One rung and its history.
    public struct Row: Sendable, Equatable {
        /// The rung, from 1.
        public var rung: Int
        /// Its queries, or its folder.
        public var label: String
        /// Expected SUDS, 0–100.
        public var suds: Int
        /// Stills.
        public var still: Bool
        /// Rounds played on it.
        public var rounds: Int
        /// The most exposure of a round on it.
        public var bestExposedMs: Int?
        /// The distress after its latest rated round, 0–10.
        public var lastDistress: Int?
        /// When it was mastered.
        public var masteredOn: Date?
        /// When its next re-test is due.
        public var retestDue: Date?

        /// The field names of a row's object, spelled once, in the order they are written.
        public enum Field {
            public static let rung = "rung", label = "label", suds = "suds", still = "still", rounds = "rounds"
            public static let bestExposedMs = "best_exposed_ms", lastDistress = "last_distress"
            public static let masteredOn = "mastered_on", retestDue = "retest_due"
        }

        // A row is made with the memberwise initializer (internal: the table
        // makes its rows); it is there because no initializer is declared here.
    }

    /// The table of `ladder` over `entries` (the whole history), at `now`.
    public init(ladder: Ladder, source: String, entries: [HistoryEntry], now: Date) {
        self.init(ladder: ladder, source: source, rounds: LadderStanding.rounds(of: ladder.name, in: entries), now: now)
    }

    /// The table of `ladder` over its `rounds` (oldest first), at `now`.
    public init(ladder: Ladder, source: String, rounds: [LadderRound], now: Date) {
        self.ladder = ladder
        self.source = source
        let progress = LadderStanding.progress(ladder, rounds: rounds)
        self.progress = progress
        next = progress.next(now: now, rules: ladder.rules)
        rows = ladder.rungs.enumerated().map { index, rung in
            let number = index + 1
            let mine = rounds.filter { $0.rung == number }
            return Row(rung: number, label: rung.label, suds: rung.suds, still: rung.still, rounds: mine.count,
                       bestExposedMs: mine.map(\.exposedMs).max(), lastDistress: mine.last(where: { $0.sudsAfter != nil })?.sudsAfter,
                       masteredOn: progress.masteredOn[number], retestDue: progress.retestDue(number, rules: ladder.rules))
        }
    }

    /// Reads a `ladder` record; nil when it is of another kind, or a field
    /// it always has is missing or of another type.
    ///
    /// The record holds the table, not the whole ladder and its history: the
    /// ladder read back has the rungs as the rows show them (each rung's
    /// label its one query), no feared outcome and the default rules; its
    /// progress, the rung, whether it is complete and when each rung was
    /// mastered. Its record is the one read.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let name = record.string(Field.name), let title = record.string(Field.title),
              let source = record.string(Field.source), let rung = record.int(Field.rung),
              let complete = record.bool(Field.complete), let nextRung = record.int(Field.nextRung),
              let nextRetest = record.bool(Field.nextRetest), let why = record.string(Field.why),
              let items = record.objects(Field.rungs) else { return nil }
        var rows: [Row] = []
        for item in items {
            guard let row = Row(record: item) else { return nil }
            rows.append(row)
        }
        ladder = Ladder(name: name, title: title, rungs: rows.map { Rung(queries: [$0.label], suds: $0.suds, still: $0.still) })
        self.source = source
        progress = LadderProgress()
        progress.rung = rung
        progress.complete = complete
        for row in rows { progress.masteredOn[row.rung] = row.masteredOn }
        next = LadderProgress.Pick(rung: nextRung, retest: nextRetest, why: why)
        self.rows = rows
    }

    /// The `ladder` record (docs/ladders.md).
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.name, ladder.name), (Field.title, ladder.title), (Field.source, source),
                    (Field.rung, progress.rung), (Field.complete, progress.complete), (Field.nextRung, next.rung),
                    (Field.nextRetest, next.retest), (Field.why, next.why)])
        let array = JSONRecord.parseArray(rows.map { $0.record() }, key: Field.rungs)
        record.set(Field.rungs, from: array)
        return record
    }

    /// What the SUDS column is, under the table (issue 29 #9: it was never said).
    public static let sudsNote = "SUDS: expected distress, 0–100 (subjective units of distress); on your 0–10 ratings, SUDS 40 is a 4."

    /// The table as lines of text; the next rung marked `▶`.
    public func lines(style: TextStyle) -> [String] {
        // A ladder file may be someone else's: its words are shown, never acted on.
        var out = [style.bold(RemoteText.clean(ladder.title, limit: 80)) + "  (\(ladder.name), \(source))"]
        if let expectation = ladder.expectation { out.append("Feared outcome: \"\(RemoteText.clean(expectation, limit: 200))\"") }
        out.append("")
        let header = ["", "rung", "shows", "SUDS", "rounds", "best", "last", "mastered", "re-test due"]
        var table = [header]
        for row in rows {
            let mark = row.rung == next.rung ? "▶" : ""
            let label = (row.still ? "(still) " : "") + RemoteText.clean(row.label, limit: 32)
            table.append([mark, "\(row.rung)", String(label.prefix(32)), "\(row.suds)", "\(row.rounds)",
                          row.bestExposedMs.map { DurationText.format(milliseconds: $0) } ?? "–",
                          row.lastDistress.map { "\($0)/10" } ?? "–",
                          row.masteredOn.map { String(Timestamp.format($0).prefix(10)) } ?? "–",
                          row.retestDue.map { String(Timestamp.format($0).prefix(10)) } ?? "–"])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        for (index, cells) in table.enumerated() {
            let line = cells.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
            let trimmed = String(line.reversed().drop(while: { $0 == " " }).reversed())
            out.append(index == 0 ? style.dim(trimmed) : trimmed)
        }
        out.append(style.dim(Self.sudsNote))
        out.append("")
        out.append("Next: rung \(next.rung)\(next.retest ? " (a re-test)" : "") — \(next.why).")
        return out
    }
}

extension JSONRecord {
    /// A record holding `items` as the array `key` (jansson builds it; the kits add no array setter).
    static func parseArray(_ items: [JSONRecord], key: String = LadderTable.Field.rungs) -> JSONRecord {
        let text = "{\"\(key)\":[" + items.map(\.text).joined(separator: ",") + "]}"
        return (try? JSONRecord.parse(text)) ?? JSONRecord()
    }
}

extension LadderTable.Row {
    /// Reads a row's object; nil when a field it always has is missing or of another type.
    init?(record: JSONRecord) {
        guard let rung = record.int(Field.rung), let label = record.string(Field.label), let suds = record.int(Field.suds),
              let still = record.bool(Field.still), let rounds = record.int(Field.rounds) else { return nil }
        self.init(rung: rung, label: label, suds: suds, still: still, rounds: rounds,
                  bestExposedMs: record.int(Field.bestExposedMs), lastDistress: record.int(Field.lastDistress),
                  masteredOn: record.string(Field.masteredOn).flatMap(Timestamp.date),
                  retestDue: record.string(Field.retestDue).flatMap(Timestamp.date))
    }

    /// The row's object.
    func record() -> JSONRecord {
        let item = JSONRecord()
        item.set([(Field.rung, rung), (Field.label, label), (Field.suds, suds), (Field.still, still), (Field.rounds, rounds),
                  (Field.bestExposedMs, bestExposedMs), (Field.lastDistress, lastDistress),
                  (Field.masteredOn, masteredOn.map(Timestamp.format)), (Field.retestDue, retestDue.map(Timestamp.format))])
        return item
    }
}
