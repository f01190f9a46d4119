import LadderKit
import HistoryKit
import ScoreKit
import Testing
import TestSupport

/// The Game Over screen of a ladder round: the ladder, the rung and its SUDS,
/// the step and the next rung, the ratings, and what the tool is.
@Suite struct RoundScreenLadderTests {
    /// A ladder round on `rung` of spiders: 61 s held, rated as given.
    func ladderRound(rung: Int = 2, retest: Bool = false) throws -> Round {
        try #require(score([
            Event.start(clock: "virtual"),
            #"{"kind":"rating","when":"before","suds":6,"expect_pct":70}"#,
            #"{"kind":"shown","id":"g","section":"spiders","ladder":"spiders","rung":\#(rung),"rung_suds":\#(rung * 5)\#(retest ? #","retest":true"# : ""),"start_ms":0,"end_ms":61000,"exposed_ms":61000,"frames":10,"completed":true}"#,
            Event.hold(0, 61_000),
            #"{"kind":"rating","when":"after","peak":7,"suds":2,"happened":false}"#,
            Event.end(61_000),
        ]).rounds.first)
    }

    @Test func aStepUpSaysTheRungTheReasonAndTheNextRound() throws {
        var scored = ScoredRound(round: try ladderRound(), distress: try ladderRound().ratings.distress)
        scored.ladderOutcome = LadderOutcome(rungBefore: 2, rung: 3, nextRung: 3, nextRetest: false,
                                             why: "the last 2 counted rounds on rung 2 ended calm: step up")
        #expect(RoundScreen.lines(scored, style: .plain) == [
            "  G A M E   O V E R",
            "  " + String(repeating: "─", count: 47),
            "  Exposure      1m 01s",
            "  Points        732",
            "  Longest hold  1m 01s   (1 hold)",
            "  GIFs          1 shown, 1 watched to the end",
            "  Stalls        none",
            "  Errors        none",
            "  Sections      spiders   1m 01s   1 GIF",
            "  Distress      6 → 2  down 4",
            "  Ladder        spiders, rung 2 (expected distress 1 of 10)",
            "  Step          up to rung 3: the last 2 counted rounds on rung 2 ended calm",
            "  Next round    rung 3",
            "  Peak          7 of 10",
            "  Expected      70% likely; it did not happen",
            "  Self-help practice, not a treatment: let go or press q to stop at any time.",
        ])
    }

    @Test func aStayAndADueRetestAreSaid() throws {
        var scored = ScoredRound(round: try ladderRound())
        scored.ladderOutcome = LadderOutcome(rungBefore: 2, rung: 2, nextRung: 1, nextRetest: true,
                                             why: "re-test of rung 1, mastered 7 days ago")
        let lines = RoundScreen.lines(scored, style: .plain)
        #expect(Array(lines.suffix(5)) == [
            "  Step          stay on rung 2",
            "  Next round    rung 1, a re-test of a rung you mastered",
            "  Peak          7 of 10",
            "  Expected      70% likely; it did not happen",
            "  Self-help practice, not a treatment: let go or press q to stop at any time.",
        ])
    }

    @Test func aRetestThatBroughtFearBackGoesBackGently() throws {
        var scored = ScoredRound(round: try ladderRound(rung: 1, retest: true))
        scored.ladderOutcome = LadderOutcome(rungBefore: 3, rung: 1, nextRung: 1, nextRetest: false,
                                             why: "fear came back on the re-test of rung 1 (distress after 6 ≥ 5)")
        let lines = RoundScreen.lines(scored, style: .plain)
        #expect(lines.contains("  Ladder        spiders, rung 1 (expected distress 0.5 of 10, a re-test)"))
        #expect(lines.contains("  Step          back to rung 1, an easier one: fear came back on the re-test of rung 1 (distress after 6 ≥ 5)"))
        #expect(lines.contains("  Next round    rung 1"))
        #expect(!lines.joined().lowercased().contains("cure"))
    }

    @Test func withoutAnOutcomeTheStepIsNotGuessed() throws {
        let lines = RoundScreen.lines(ScoredRound(round: try ladderRound()), style: .plain)
        #expect(lines.contains("  Step          not worked out (no history: --no-history, or the ladder or the history could not be read)"))
        #expect(!lines.contains { $0.hasPrefix("  Next round") })
    }

    @Test func aRoundOffALadderAddsNothing() throws {
        let round = try #require(score(Event.normalRound).rounds.first)
        let lines = RoundScreen.lines(ScoredRound(round: round), style: .plain)
        #expect(lines.count == 9)
        #expect(!lines.contains { $0.contains("Ladder") || $0.contains("Self-help") })
    }

    /// Issue 29 #9: "expected distress 5 of 100" stood beside ratings of 0–10.
    @Test func issue29_9_theRungsExpectedDistressIsOnTheScaleOfTheRatings() throws {
        let lines = RoundScreen.lines(ScoredRound(round: try ladderRound(rung: 9)), style: .plain)
        #expect(lines.contains("  Ladder        spiders, rung 9 (expected distress 4.5 of 10)"))
        #expect(lines.contains("  Peak          7 of 10"))
    }
}
