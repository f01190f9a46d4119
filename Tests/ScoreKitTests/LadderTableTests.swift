import Foundation
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit
import Testing

/// `score ladder NAME`: one row a rung with what the history says, the next rung marked (issue 15).
@Suite struct LadderTableTests {
    let ladder = Ladder(name: "spiders", title: "Spiders", expectation: "I will panic",
                        rungs: (1...8).map { Rung(queries: ["spider \($0)"], suds: $0 * 10, still: $0 == 1) })

    func round(_ at: String, rung: Int, exposed: Int = 61_000, after: Int, retest: Bool = false) -> HistoryEntry {
        HistoryEntry(at: at, exposedMs: exposed, holds: 1, ladder: LadderTag(ladder: "spiders", rung: rung, rungSuds: rung * 10, retest: retest),
                     ratings: RoundRatings(sudsBefore: 6, peak: 7, sudsAfter: after), reason: "released")
    }

    var history: [HistoryEntry] {
        [
            round("2026-11-20T10:00:00Z", rung: 1, exposed: 70_000, after: 2),
            HistoryEntry(at: "2026-11-20T12:00:00Z", exposedMs: 99_000),  // off the ladder
            round("2026-11-21T10:00:00Z", rung: 1, after: 3),
            round("2026-11-22T10:00:00Z", rung: 2, exposed: 30_000, after: 6),
        ]
    }

    @Test func rowsSayRoundsBestLastDistressMasteryAndTheRetestDue() throws {
        let table = LadderTable(ladder: ladder, source: "built-in", entries: history, now: try #require(Timestamp.date("2026-11-23T10:00:00Z")))
        #expect(table.progress.rung == 2)
        #expect(table.next == LadderProgress.Pick(rung: 2, retest: false, why: "the last 2 counted rounds on rung 1 ended calm: step up"))
        #expect(table.rows.count == 8)
        #expect(table.rows[0].rounds == 2 && table.rows[0].bestExposedMs == 70_000 && table.rows[0].lastDistress == 3)
        #expect(table.rows[0].masteredOn.map(Timestamp.format) == "2026-11-21T10:00:00Z")
        #expect(table.rows[0].retestDue.map(Timestamp.format) == "2026-11-28T10:00:00Z")
        #expect(table.rows[1].rounds == 1 && table.rows[1].lastDistress == 6 && table.rows[1].masteredOn == nil)
        #expect(table.rows[2].rounds == 0 && table.rows[2].bestExposedMs == nil)
        let lines = table.lines(style: .plain)
        #expect(Array(lines.prefix(6)) == [
            "Spiders  (spiders, built-in)",
            "Feared outcome: \"I will panic\"",
            "",
            "   rung  shows             SUDS  rounds  best    last  mastered    re-test due",
            "   1     (still) spider 1  10    2       1m 10s  3/10  2026-11-21  2026-11-28",
            "▶  2     spider 2          20    1       30s     6/10  –           –",
        ])
        #expect(lines.last == "Next: rung 2 — the last 2 counted rounds on rung 1 ended calm: step up.")
        // Issue 29 #9: "SUDS" heads a column and was never explained.
        #expect(Array(lines.suffix(3)) == [
            "SUDS: expected distress, 0–100 (subjective units of distress); on your 0–10 ratings, SUDS 40 is a 4.",
            "",
            "Next: rung 2 — the last 2 counted rounds on rung 1 ended calm: step up.",
        ])
    }

    @Test func aDueRetestIsTheNextRungAndTheRecordSaysSo() throws {
        let table = LadderTable(ladder: ladder, source: "built-in", entries: history, now: try #require(Timestamp.date("2026-11-28T10:00:00Z")))
        #expect(table.next.rung == 1 && table.next.retest)
        let record = table.record()
        #expect(record.string("kind") == "ladder")
        #expect(record.int("rung") == 2)
        #expect(record.int("next_rung") == 1)
        #expect(record.bool("next_retest") == true)
        #expect(record.string("why") == "re-test of rung 1, mastered 7 days ago")
        #expect(record.text.contains(#"{"rung":1,"label":"spider 1","suds":10,"still":true,"rounds":2,"best_exposed_ms":70000,"last_distress":3,"mastered_on":"2026-11-21T10:00:00Z","retest_due":"2026-11-28T10:00:00Z"}"#))
    }

    /// The reader refuses control characters, but the table never trusts
    /// it: a ladder's words are shown, never acted on by the terminal.
    @Test func theTableShowsNoEscapeOfTheLaddersWords() {
        let hostile = Ladder(name: "x", title: "Spiders\u{1B}]52;c;cHduZWQK\u{07}", expectation: "I\u{1B}[2J panic\r\n",
                             rungs: (1...8).map { Rung(queries: ["q\u{9B}31m \($0)"], suds: $0 * 10) })
        let text = LadderTable(ladder: hostile, source: "built-in", entries: [], now: Date()).lines(style: .plain).joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 || $0.value == 0x0D })
        #expect(text.hasPrefix("Spiders  (x, built-in)\nFeared outcome: \"I panic\""), "\(text)")
        #expect(text.contains(" q 1 "), "\(text)")
    }

    @Test func anEmptyHistoryStartsOnTheFirstRung() throws {
        let table = LadderTable(ladder: ladder, source: "/home/me/.config/sposure/ladders/spiders.json", entries: [], now: Date())
        #expect(table.next == LadderProgress.Pick(rung: 1, retest: false, why: "the first rung"))
        #expect(table.rows.allSatisfy { $0.rounds == 0 })
        #expect(table.lines(style: .plain).last == "Next: rung 1 — the first rung.")
    }
}
