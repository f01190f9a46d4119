import Foundation
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit
import Testing

/// LadderHistory reads the history a line at a time and keeps only the rounds
/// of the ladders asked for: what it finds must be what the whole history in
/// memory gives.
@Suite struct LadderHistoryTests {
    func round(_ at: String, ladder: String = "spiders", rung: Int, exposed: Int = 61_000, after: Int) -> HistoryEntry {
        HistoryEntry(at: at, exposedMs: exposed, holds: 1, ladder: LadderTag(ladder: ladder, rung: rung, rungSuds: rung * 10, retest: false),
                     ratings: RoundRatings(sudsBefore: 6, peak: 7, sudsAfter: after), reason: "released")
    }

    /// Two ladders and plain rounds, dates out of file order, two rounds of one date.
    var entries: [HistoryEntry] {
        [
            round("2026-11-21T10:00:00Z", rung: 1, after: 3),
            HistoryEntry(at: "2026-11-20T12:00:00Z", exposedMs: 99_000),
            round("2026-11-20T10:00:00Z", rung: 1, exposed: 70_000, after: 2),
            round("2026-11-20T11:00:00Z", ladder: "needles", rung: 3, after: 5),
            round("2026-11-22T10:00:00Z", rung: 2, exposed: 30_000, after: 6),
            round("2026-11-22T10:00:00Z", rung: 2, exposed: 31_000, after: 7),
        ]
    }

    func withHistory(_ body: (HistoryFile) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sposure-ladder-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = HistoryFile(path: folder.path + "/history.ndjson", owner: .program)
        for entry in entries { try file.append(entry) }
        try body(file)
    }

    @Test func readsWhatTheWholeHistoryGives() throws {
        try withHistory { file in
            let streamed = try LadderHistory(file: file, ladders: ["spiders", "needles", "snakes"])
            let whole = LadderHistory(entries: try file.read().entries, ladders: ["spiders", "needles", "snakes"])
            #expect(streamed.rounds == whole.rounds)
            #expect(streamed.bestExposedMs == 99_000)
            #expect(streamed.rounds(of: "spiders").map(\.exposedMs) == [70_000, 61_000, 30_000, 31_000])
            #expect(streamed.rounds(of: "needles").map(\.rung) == [3])
            #expect(streamed.rounds(of: "snakes").isEmpty)
            #expect(streamed.problems.isEmpty)
        }
    }

    @Test func keepsOnlyTheLaddersAskedFor() throws {
        try withHistory { file in
            let streamed = try LadderHistory(file: file, ladders: ["needles"])
            #expect(streamed.rounds.keys.sorted() == ["needles"])
            #expect(streamed.bestExposedMs == 99_000)
        }
    }

    @Test func aRoundJustPlayedJoinsInDateOrder() throws {
        try withHistory { file in
            var history = try LadderHistory(file: file, ladders: ["spiders", "snakes"])
            history.add(round("2026-11-21T12:00:00Z", rung: 1, exposed: 5_000, after: 1))
            history.add(round("2026-11-23T10:00:00Z", ladder: "snakes", rung: 1, exposed: 120_000, after: 1))
            history.add(round("2026-11-23T10:00:00Z", ladder: "bees", rung: 1, after: 1))  // not asked for
            #expect(history.rounds(of: "spiders").map(\.exposedMs) == [70_000, 61_000, 5_000, 30_000, 31_000])
            #expect(history.rounds(of: "snakes").map(\.exposedMs) == [120_000])
            #expect(history.rounds(of: "bees").isEmpty)
            #expect(history.bestExposedMs == 120_000)
        }
    }

    @Test func aMissingFileIsAnEmptyHistory() throws {
        let history = try LadderHistory(file: HistoryFile(path: "/nonexistent/sposure/history.ndjson", owner: .program), ladders: ["spiders"])
        #expect(history.rounds(of: "spiders").isEmpty)
        #expect(history.bestExposedMs == nil)
    }
}
