import Foundation
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit
import Testing

/// What a round did to the ladder: the rule that moved it (LadderProgress.Step.kind),
/// not a comparison of rung numbers. Fear coming back on the top rung's re-test
/// leaves the rung number as it was, and is no "re-test held"; on a lower rung's
/// re-test the number falls, and it is no step down.
@Suite struct LadderOutcomeTests {
    let ladder = Ladder(name: "spiders", title: "Spiders", expectation: "I will panic",
                        rungs: (1...2).map { Rung(queries: ["spider \($0)"], suds: $0 * 10, still: false) })

    func entry(_ at: String, rung: Int, after: Int, retest: Bool = false) -> HistoryEntry {
        HistoryEntry(at: at, exposedMs: 61_000, holds: 1, ladder: LadderTag(ladder: "spiders", rung: rung, rungSuds: rung * 10, retest: retest),
                     ratings: RoundRatings(sudsBefore: 6, peak: 7, sudsAfter: after), reason: "released")
    }

    /// Both rungs climbed by two calm rounds each: the ladder is complete.
    var climbed: [HistoryEntry] {
        [entry("2026-11-01T10:00:00Z", rung: 1, after: 2), entry("2026-11-02T10:00:00Z", rung: 1, after: 2),
         entry("2026-11-03T10:00:00Z", rung: 2, after: 2)]
    }

    func outcome(after earlier: [HistoryEntry], _ round: HistoryEntry, now: String) throws -> LadderOutcome {
        LadderStanding.outcome(ladder, earlier: LadderStanding.rounds(of: "spiders", in: earlier), entry: round,
                               now: try #require(Timestamp.date(now)))
    }

    @Test func calmRoundsStepUpThenCompleteTheLadder() throws {
        let up = try outcome(after: Array(climbed.prefix(1)), climbed[1], now: "2026-11-02T11:00:00Z")
        #expect(up.step == .up && up.rungBefore == 1 && up.rung == 2)
        let top = try outcome(after: climbed, entry("2026-11-04T10:00:00Z", rung: 2, after: 1), now: "2026-11-04T11:00:00Z")
        #expect(top.step == .complete, "\(top)")
    }

    @Test func fearBackOnTheTopRungsRetestIsThatRungAgain() throws {
        let mastered = climbed + [entry("2026-11-04T10:00:00Z", rung: 2, after: 1)]
        let held = try outcome(after: mastered, entry("2026-11-11T10:00:00Z", rung: 2, after: 2, retest: true), now: "2026-11-11T11:00:00Z")
        #expect(held.step == .stay)
        let back = try outcome(after: mastered, entry("2026-11-11T10:00:00Z", rung: 2, after: 6, retest: true), now: "2026-11-11T11:00:00Z")
        #expect(back.step == .back && back.rungBefore == 2 && back.rung == 2, "\(back)")
        #expect(back.why.hasPrefix("fear came back on the re-test of rung 2"))

        var scored = ScoredRound(round: Round(), distress: nil)
        scored.round.ladder = LadderTag(ladder: "spiders", rung: 2, rungSuds: 20, retest: true)
        scored.ladderOutcome = back
        let step = RoundScreen.lines(scored, style: .plain).first { $0.contains("Step") } ?? ""
        #expect(step.contains("rung 2 again") && !step.contains("held"), "\(step)")
    }

    @Test func fearBackOnALowerRungsRetestIsBackNotDown() throws {
        let three = Ladder(name: "spiders", title: "Spiders", rungs: (1...8).map { Rung(queries: ["spider \($0)"], suds: $0 * 10) })
        let climbed = [entry("2026-11-01T10:00:00Z", rung: 1, after: 2), entry("2026-11-02T10:00:00Z", rung: 1, after: 2),
                       entry("2026-11-03T10:00:00Z", rung: 2, after: 2), entry("2026-11-04T10:00:00Z", rung: 2, after: 2)]
        let failed = entry("2026-11-09T10:00:00Z", rung: 1, after: 7, retest: true)
        let back = LadderStanding.outcome(three, earlier: LadderStanding.rounds(of: "spiders", in: climbed), entry: failed,
                                          now: try #require(Timestamp.date("2026-11-09T11:00:00Z")))
        #expect(back.step == .back && back.rungBefore == 3 && back.rung == 1, "\(back)")
    }
}
