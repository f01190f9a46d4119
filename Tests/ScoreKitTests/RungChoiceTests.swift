import Foundation
import HistoryKit
import LadderKit
import RecordKit
import Testing

/// Picking the rung is one library call (issue 20: `giphy-pages plan` read
/// the history and applied the rules itself, through ScoreKit).
@Suite struct RungChoiceTests {
    private func folder() -> String {
        let path = NSTemporaryDirectory() + "rung-choice-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFreshLadderStartsOnItsFirstRung() throws {
        let root = folder()
        let choice = try RungChoice.choose(ladder: "spiders", library: LadderLibrary(configFolder: root),
                                           history: HistoryFile(path: root + "/history.ndjson", owner: .program))
        #expect(choice.pick.rung == 1)
        #expect(!choice.pick.retest)
        #expect(choice.rung.queries == ["cartoon spider"])
        #expect(choice.mastered.isEmpty)
        #expect(choice.warnings.isEmpty)
        #expect(choice.summary.hasPrefix("spiders: rung 1 of \(choice.ladder.rungs.count) ("))
    }

    @Test func twoCalmCountedRoundsStepUpAndMasterTheRung() throws {
        let root = folder()
        let history = HistoryFile(path: root + "/history.ndjson", owner: .program)
        for at in ["2026-11-20T10:00:00Z", "2026-11-21T10:00:00Z"] {
            try history.append(HistoryEntry(at: at, exposedMs: 120_000, holds: 1,
                                            ladder: LadderTag(ladder: "spiders", rung: 1, rungSuds: 10, retest: false),
                                            ratings: RoundRatings(sudsBefore: 3, peak: 3, sudsAfter: 1), reason: "released"))
        }
        let choice = try RungChoice.choose(ladder: "spiders", now: try #require(Timestamp.date("2026-11-21T11:00:00Z")),
                                           library: LadderLibrary(configFolder: root), history: history)
        #expect(choice.pick.rung == 2)
        #expect(choice.mastered == [1])
    }

    @Test func rungOverridesTheRulesAndOnePastTheTopIsAFailure() throws {
        let root = folder()
        let history = HistoryFile(path: root + "/history.ndjson", owner: .program)
        let choice = try RungChoice.choose(ladder: "spiders", rung: 3, library: LadderLibrary(configFolder: root), history: history)
        #expect(choice.pick == LadderProgress.Pick(rung: 3, retest: false, why: "--rung"))
        let top = choice.ladder.rungs.count
        #expect(throws: RungChoice.Failure(description: "--rung \(top + 1): the ladder spiders has \(top) rungs")) {
            try RungChoice.choose(ladder: "spiders", rung: top + 1, library: LadderLibrary(configFolder: root), history: history)
        }
    }

    @Test func anUnknownLadderIsAFailureAndAnUnreadableHistoryAWarning() throws {
        let root = folder()
        #expect(throws: RungChoice.Failure.self) {
            try RungChoice.choose(ladder: "no-such-fear", library: LadderLibrary(configFolder: root))
        }
        // A folder where the history should be: planned as if nothing was played, and said.
        try FileManager.default.createDirectory(atPath: root + "/history.ndjson", withIntermediateDirectories: true)
        let choice = try RungChoice.choose(ladder: "spiders", library: LadderLibrary(configFolder: root),
                                           history: HistoryFile(path: root + "/history.ndjson", owner: .program))
        #expect(choice.pick.rung == 1)
        #expect(choice.warnings.count == 1)
        #expect(choice.warnings.first?.hasSuffix("; planning as if no round was played") == true)
    }
}
