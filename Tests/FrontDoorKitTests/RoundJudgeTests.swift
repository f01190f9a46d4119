import FrontDoorKit
import Testing

/// The verdict pipelines/lib.sh's judge_round gave, now sposure's: from the
/// statuses of plan, list, fetch-images, gif-play, the save and score, the
/// round's status and the lines it says.
@Suite struct RoundJudgeTests {
    static let stages = ["giphy-pages plan", "giphy-pages list", "fetch-images", "gif-play", "save events", "score"]
    static let failed = "the round could not be played or scored: "

    @Test(arguments: [
        // Every stage ended well: played.
        ([0, 0, 0, 0, 0, 0], true, 0, []),
        // A GIF that could not be fetched is an error in the score, not a failed round.
        ([0, 0, 1, 0, 0, 0], true, 0, ["some GIFs could not be fetched (fetch-images exit 1): the score counts them under errors"]),
        ([0, 0, 137, 0, 0, 0], true, 1, [RoundJudgeTests.failed + "fetch-images was killed by SIGKILL"]),
        ([0, 0, 0, 0, 0, 1], true, 1, [RoundJudgeTests.failed + "score found no round in gif-play's events"]),
        ([0, 0, 0, 0, 1, 0], true, 1, [RoundJudgeTests.failed + "could not write events (tee exit 1)"]),
        // An interrupted round exits with the signal's status.
        ([0, 0, 0, 130, 0, 130], true, 130, []),
        // A Ctrl-C before gif-play wrote its first event leaves score no round:
        // the round was interrupted, it did not fail.
        ([0, 0, 143, 143, 0, 1], true, 143, []),
    ] as [([Int32], Bool, Int32, [String])])
    func judgesTheRound(_ statuses: [Int32], _ shown: Bool, _ status: Int32, _ lines: [String]) {
        #expect(RoundJudge(Array(zip(Self.stages, statuses)), eventsShowedAGIF: shown) == RoundJudge(status: status, lines: lines))
    }

    /// Only the status is pinned: a stage whose reader went first (SIGPIPE)
    /// ended normally, SIGTERM is 143, and a fatal failure wins over an interruption.
    @Test(arguments: [([141, 141, 141, 0, 0, 0], 0), ([143, 0, 0, 0, 0, 0], 143), ([0, 0, 2, 130, 0, 0], 1)] as [([Int32], Int32)])
    func exitsWith(_ statuses: [Int32], _ status: Int32) {
        #expect(RoundJudge(Array(zip(Self.stages, statuses)), eventsShowedAGIF: true).status == status)
    }

    @Test func notOneGIFShownBecauseAStageFailedEveryRecordFailsTheRound() {
        let verdict = RoundJudge(Array(zip(Self.stages, [0, 1, 0, 0, 0, 0])), eventsShowedAGIF: false)
        #expect(verdict.status == 1)
        #expect(verdict.lines.first?.hasPrefix("the round could not be played: no GIF was shown, and giphy-pages list failed (exit 1") == true)
    }
}
