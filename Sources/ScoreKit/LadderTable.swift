import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import SposureKit

/// `score ladder NAME`: the ladder as a table, one row a rung, with what the
/// history says of each, and the next rung marked.
public struct LadderTable: Sendable {
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

    /// The `ladder` record (docs/ladders.md).
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "ladder")
        record.set("name", ladder.name)
        record.set("title", ladder.title)
        record.set("source", source)
        record.set("rung", progress.rung)
        record.set("complete", progress.complete)
        record.set("next_rung", next.rung)
        record.set("next_retest", next.retest)
        record.set("why", next.why)
        let array = JSONRecord.parseArray(rows.map { row in
            let item = JSONRecord()
            item.set("rung", row.rung)
            item.set("label", row.label)
            item.set("suds", row.suds)
            item.set("still", row.still)
            item.set("rounds", row.rounds)
            item.set("best_exposed_ms", row.bestExposedMs)
            item.set("last_distress", row.lastDistress)
            item.set("mastered_on", row.masteredOn.map(Timestamp.format))
            item.set("retest_due", row.retestDue.map(Timestamp.format))
            return item
        })
        record.set("rungs", from: array, key: "rungs")
        return record
    }

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
        out.append("")
        out.append("Next: rung \(next.rung)\(next.retest ? " (a re-test)" : "") — \(next.why).")
        return out
    }
}

extension JSONRecord {
    /// A record holding `items` as the array `rungs` (jansson builds it; the kits add no array setter).
    static func parseArray(_ items: [JSONRecord]) -> JSONRecord {
        let text = "{\"rungs\":[" + items.map(\.text).joined(separator: ",") + "]}"
        return (try? JSONRecord.parse(text)) ?? JSONRecord()
    }
}
