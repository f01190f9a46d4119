import Foundation
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit
import Testing

/// `score ladder` (and `sposure ladder`) without a name.
@Suite struct LadderListTests {
    let spiders = Ladder(name: "spiders", title: "Spiders", rungs: (1...8).map { Rung(queries: ["spider \($0)"], suds: $0 * 10) })
    let snakes = Ladder(name: "snakes", title: "Snakes", rungs: (1...10).map { Rung(queries: ["snake \($0)"], suds: $0 * 9) })

    func round(_ at: String, rung: Int, after: Int) -> HistoryEntry {
        HistoryEntry(at: at, exposedMs: 61_000, holds: 1, ladder: LadderTag(ladder: "spiders", rung: rung, rungSuds: rung * 10),
                     ratings: RoundRatings(sudsBefore: 6, peak: 7, sudsAfter: after), reason: "released")
    }

    /// Issue 29 #9: `sposure ladder` alone printed a bare list of names.
    @Test func issue29_9_eachLadderSaysWhereYouStandOnIt() throws {
        let now = try #require(Timestamp.date("2026-11-23T10:00:00Z"))
        let history = [round("2026-11-20T10:00:00Z", rung: 1, after: 2), round("2026-11-21T10:00:00Z", rung: 1, after: 3),
                       round("2026-11-22T10:00:00Z", rung: 2, after: 6)]
        let lines = LadderList.standingLines([
            LadderList.Standing(name: "spiders", table: .success(LadderTable(ladder: spiders, source: "built-in", entries: history, now: now)),
                                copy: nil),
            LadderList.Standing(name: "snakes", table: .success(LadderTable(ladder: snakes, source: "built-in", entries: history, now: now)),
                                copy: "/home/me/.config/sposure/ladders/snakes.json"),
            LadderList.Standing(name: "mine", table: .failure(LadderError(file: "mine.json", field: "rungs", problem: "fewer than 8")), copy: nil),
        ])
        #expect(lines == [
            "spiders  rung 2 of 8, 3 rounds; next round: rung 2",
            "snakes   not started (10 rungs): sposure play --ladder snakes  (your copy: /home/me/.config/sposure/ladders/snakes.json)",
            "mine     cannot be read: mine.json: rungs: fewer than 8",
            "",
            "sposure ladder NAME (score ladder NAME) shows a ladder's rungs and your rounds on each.",
        ])
    }
}
