import FrontDoorKit
import Testing

/// The verdict pipelines/lib.sh's judge_round gave, now sposure's.
@Suite struct RoundJudgeTests {
    let five = ["giphy-pages plan", "giphy-pages list", "fetch-images", "gif-play", "save events", "score"]

    func judge(_ statuses: [Int32], shown: Bool = true) -> RoundJudge {
        RoundJudge(Array(zip(five, statuses)), eventsShowedAGIF: shown)
    }

    @Test func aRoundWhereEveryStageEndedWellIsPlayed() {
        #expect(judge([0, 0, 0, 0, 0, 0]) == RoundJudge(status: 0, lines: []))
    }

    @Test func aGIFThatCouldNotBeFetchedIsAnErrorInTheScoreNotAFailedRound() {
        let verdict = judge([0, 0, 1, 0, 0, 0])
        #expect(verdict.status == 0)
        #expect(verdict.lines == ["some GIFs could not be fetched (fetch-images exit 1): the score counts them under errors"])
    }

    @Test func aStageWhoseReaderWentFirstEndedNormally() {
        #expect(judge([141, 141, 141, 0, 0, 0]).status == 0)
    }

    @Test func notOneGIFShownBecauseAStageFailedEveryRecordFailsTheRound() {
        let verdict = judge([0, 1, 0, 0, 0, 0], shown: false)
        #expect(verdict.status == 1)
        #expect(verdict.lines.first?.hasPrefix("the round could not be played: no GIF was shown, and giphy-pages list failed (exit 1") == true)
    }

    @Test func aStageKilledByASignalIsNamedWithTheSignal() {
        #expect(judge([0, 0, 137, 0, 0, 0]).lines == ["the round could not be played or scored: fetch-images was killed by SIGKILL"])
    }

    @Test func scoreFindingNoRoundFailsTheRound() {
        #expect(judge([0, 0, 0, 0, 0, 1]).lines == ["the round could not be played or scored: score found no round in gif-play's events"])
    }

    @Test func aSaveThatFailedIsNamed() {
        #expect(judge([0, 0, 0, 0, 1, 0]).lines == ["the round could not be played or scored: could not write events (tee exit 1)"])
    }

    @Test func anInterruptedRoundExitsWithTheSignalsStatus() {
        #expect(judge([0, 0, 0, 130, 0, 130]) == RoundJudge(status: 130, lines: []))
        #expect(judge([143, 0, 0, 0, 0, 0]).status == 143)
    }

    /// A Ctrl-C before gif-play wrote its first event leaves score no round:
    /// the round was interrupted, it did not fail.
    @Test func scoreFindingNoRoundOfAnInterruptedRoundIsTheInterruption() {
        #expect(judge([0, 0, 143, 143, 0, 1]) == RoundJudge(status: 143, lines: []))
    }

    @Test func aFatalFailureWinsOverAnInterruption() {
        #expect(judge([0, 0, 2, 130, 0, 0]).status == 1)
    }
}
