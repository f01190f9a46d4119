import ScoreKit
import Testing
import TestSupport

@Suite struct PointsTests {
    @Test func givesTenPointsASecondOfExposure() {
        #expect(Points.points(exposedMs: 60_000, gifsCompleted: 0) == 600)
    }

    @Test func countsExposureInWholeTenthsOfASecond() {
        #expect(Points.points(exposedMs: 8_699, gifsCompleted: 0) == 86)
        #expect(Points.points(exposedMs: 99, gifsCompleted: 0) == 0)
    }

    @Test func addsFiveForEachGIFWatchedToItsEnd() {
        #expect(Points.points(exposedMs: 8_600, gifsCompleted: 4) == 86 + 20)
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

    @Test func neverGoesNegative() {
        #expect(Points.points(exposedMs: -5, gifsCompleted: -1) == 0)
    }
}
