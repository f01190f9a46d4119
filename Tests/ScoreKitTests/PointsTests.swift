import HistoryKit
import ScoreKit
import Testing
import TestSupport

@Suite struct PointsTests {
    /// Ten points a second of exposure, in whole tenths, five for each GIF
    /// watched to its end, never negative.
    @Test(arguments: [(60_000, 0, 600), (8_699, 0, 86), (99, 0, 0), (8_600, 4, 86 + 20), (-5, -1, 0)])
    func givesTenPointsASecondAndFiveAGIFWatchedToItsEnd(_ exposedMs: Int, _ gifsCompleted: Int, _ points: Int) {
        #expect(Points.points(exposedMs: exposedMs, gifsCompleted: gifsCompleted) == points)
    }

    @Test func letsExposureCountMostForATypicalGIF() {
        // A 2.2 s GIF: 22 points of exposure against 5 for finishing it.
        #expect(Points.points(exposedMs: 2_200, gifsCompleted: 1) - Points.points(exposedMs: 0, gifsCompleted: 1) > Points.perCompletedGIF)
    }

    @Test func costsNothingForStalls() throws {
        let calm = score(Event.normalRound).rounds
        let stalled = score(Event.normalRound.flatMap { $0 == Event.stall(3400, 3520) ? [$0, Event.stall(9800, 19800)] : [$0] }).rounds
        let round = try #require(calm.first)
        let slow = try #require(stalled.first)
        #expect(slow.stallMs == round.stallMs + 10_000)
        #expect(slow.points == round.points)
        #expect(round.points == 84 + 20)
    }
}

/// Ladder rounds reward courage, not calm (issue 15, docs/ladders.md).
@Suite struct LadderPointsTests {
    @Test func weighsExposureByTheRungsSUDS() {
        // exposed_ms / 100 × (50 + rung_suds) / 50: ×1 at 0, ×2 at 50, ×3 at 100.
        #expect(Points.ladderPoints(exposedMs: 60_000, rungSuds: 0, holds: 1) == 600)
        #expect(Points.ladderPoints(exposedMs: 60_000, rungSuds: 50, holds: 1) == 1200)
        #expect(Points.ladderPoints(exposedMs: 60_000, rungSuds: 100, holds: 1) == 1800)
        #expect(Points.ladderPoints(exposedMs: 61_000, rungSuds: 5, holds: 1) == 671)
        // SUDS outside 0–100 are held to it.
        #expect(Points.ladderPoints(exposedMs: 60_000, rungSuds: 150, holds: 1) == 1800)
        #expect(Points.ladderPoints(exposedMs: 60_000, rungSuds: -10, holds: 1) == 600)
    }

    @Test func eachPressAfterLettingGoEarnsTwentyFive() {
        #expect(Points.ladderPoints(exposedMs: 10_000, rungSuds: 0, holds: 3) == 100 + 2 * 25)
        #expect(Points.ladderPoints(exposedMs: 0, rungSuds: 40, holds: 0) == 0)
    }

    @Test func lettingGoTakesNothingAndDistressDoesNotCount() throws {
        // The same exposure in one hold, or let go and pressed again: never fewer points.
        let once = Points.ladderPoints(exposedMs: 30_000, rungSuds: 20, holds: 1)
        let twice = Points.ladderPoints(exposedMs: 30_000, rungSuds: 20, holds: 2)
        #expect(twice == once + Points.perReturn)
        // A round's points come from its events; its ratings change nothing.
        let shown = #"{"kind":"shown","id":"g","ladder":"spiders","rung":4,"rung_suds":20,"start_ms":0,"end_ms":30000,"exposed_ms":30000,"frames":10,"completed":true}"#
        let calm = try #require(score([Event.start(), shown, Event.hold(0, 30_000), #"{"kind":"rating","when":"after","peak":2,"suds":0}"#, Event.end(30_000)]).rounds.first)
        let scared = try #require(score([Event.start(), shown, Event.hold(0, 30_000), #"{"kind":"rating","when":"after","peak":10,"suds":9}"#, Event.end(30_000, reason: "quit")]).rounds.first)
        #expect(calm.points == once)
        #expect(scared.points == once)
        // Off a ladder the points are as before: GIFs watched to the end count, presses do not.
        let plain = try #require(score([Event.start(), Event.shown("g", start: 0, end: 30_000), Event.hold(0, 10_000), Event.hold(12_000, 30_000), Event.end(30_000)]).rounds.first)
        #expect(plain.points == Points.points(exposedMs: 30_000, gifsCompleted: 1))
    }
}
