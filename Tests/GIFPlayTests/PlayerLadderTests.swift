// gif-play on a ladder round (issue 15), headless on a virtual clock: the
// safety notice (needed once, --accept-notice), scripted ratings giving the
// same bytes every run, the ladder fields on `shown`, stills, and the events
// through `score`. The prompts on a terminal are in PlayerTerminalTests.

import Foundation
import LadderKit
import SposureKit
import TestSupport
import Testing

@Suite struct PlayerLadderTests {
    static let headless = ["--renderer", "none", "--clock", "virtual", "--hold", "always"]
    static let ladder = #""provider":"giphy","ladder":"spiders","rung":2,"rung_suds":10"#

    /// Two image records of a 3-frame GIF (300 ms: 1 cs delays play as 10 cs), the first `extra` fields on both.
    func records(_ folder: URL, extra: String = ladder, firstExtra: String = "") throws -> String {
        let path = try PlayGIF.write(PlayGIF.animated(delays: [1, 1, 1]), "g.gif", in: folder)
        return imageRecord(id: "a", path: path, extra: [extra, firstExtra].filter { !$0.isEmpty }.joined(separator: ",")) + "\n"
            + imageRecord(id: "b", path: path, extra: extra) + "\n"
    }

    func play(_ arguments: [String], input: String, data: URL) throws -> StageProcess.Result {
        let result = try StageProcess("gif-play", arguments: Self.headless + arguments,
                                      environment: ["SPOSURE_DATA": data.path], stdin: Array(input.utf8)).wait(timeout: 60)
        #expect(!result.timedOut, "\(result)")
        return result
    }

    func ratingsScript(_ folder: URL) throws -> String {
        let path = folder.appendingPathComponent("ratings.ndjson").path
        try """
            {"when":"before","suds":7,"expect_pct":80}
            {"t_ms":400,"rated":8}
            {"when":"after","peak":8,"suds":4,"happened":false}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return "script:" + path
    }

    @Test func scriptedRatingsOnAVirtualClockGiveTheSameEventsEveryRun() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder)
            let arguments = ["--accept-notice", "--ratings", try ratingsScript(folder)]
            let first = try play(arguments, input: input, data: folder)
            let second = try play(arguments, input: input, data: folder)
            #expect(first.exitCode == 0, "\(first)")
            #expect(first.stdout == second.stdout, "byte for byte")
            let tags = #","provider":"giphy","ladder":"spiders","rung":2,"rung_suds":10}"#
            #expect(first.stdoutLines == [
                Event.start(),
                #"{"kind":"rating","when":"before","suds":7,"expect_pct":80}"#,
                String(Event.shown("a", start: 0, end: 300, exposed: 300, frames: 3, completed: true).dropLast()) + tags,
                #"{"kind":"rated","provider":"giphy","id":"b","rating":8,"t_ms":400}"#,
                String(Event.shown("b", start: 300, end: 600, exposed: 300, frames: 3, completed: true).dropLast()) + tags,
                Event.hold(0, 600),
                Event.end(600, "eof"),
                #"{"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}"#,
            ])
            #expect(!FileManager.default.fileExists(atPath: SafetyNotice.acceptedPath(dataFolder: folder.path)),
                    "--accept-notice is for this run: the notice is not kept as accepted")
        }
    }

    /// A ratings script's lines are ratings, not keys: two equal ratings of
    /// one GIF 30 ms apart are two `rated` events (the key-repeat rule
    /// dropped the second), and a CRLF file reads as well as an LF one.
    @Test func twoEqualScriptedRatingsCloseTogetherAreBothKept() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder)
            let path = folder.appendingPathComponent("twice.ndjson").path
            try "{\"t_ms\":400,\"rated\":8}\r\n{\"t_ms\":430,\"rated\":8}\r\n".write(toFile: path, atomically: true, encoding: .utf8)
            let result = try play(["--accept-notice", "--ratings", "script:" + path], input: input, data: folder)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdoutLines.filter { $0.contains(#""kind":"rated""#) } == [
                #"{"kind":"rated","provider":"giphy","id":"b","rating":8,"t_ms":400}"#,
                #"{"kind":"rated","provider":"giphy","id":"b","rating":8,"t_ms":430}"#,
            ])
        }
    }

    @Test func withoutATerminalTheNoticeMustBeAcceptedByOptionOrBefore() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder)
            let refused = try play([], input: input, data: folder)
            #expect(refused.exitCode == 2, "\(refused)")
            #expect(refused.stderr.contains("self-help practice tool, not a treatment"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--accept-notice"), "\(refused.stderr)")
            #expect(!refused.stdoutLines.contains { $0.contains("\"shown\"") }, "nothing played: \(refused.stdoutLines)")
            #expect(refused.stdoutLines.last == Event.end(0, "quit"))

            try SafetyNotice.accept(dataFolder: folder.path, at: "2026-11-21T10:00:00Z")
            let accepted = try play(["--ratings", "off"], input: input, data: folder)
            #expect(accepted.exitCode == 0, "accepted once, in the data folder: \(accepted)")
            #expect(accepted.stdoutLines.filter { $0.contains("\"shown\"") }.count == 2)
            #expect(!accepted.stdoutLines.contains { $0.contains("\"rating\"") }, "--ratings off: \(accepted.stdoutLines)")
        }
    }

    /// Issue "Hostile input, third pass", item 7: declining the notice (here the
    /// headless refusal, exit 2) writes a session start and a `quit` end with no
    /// hold, and `score` does not keep that as a round: twice refused is no
    /// round today, not `rounds_today: 2`.
    @Test func aRefusedNoticeWritesNoHoldAndScoreKeepsNoRound() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder)
            let environment = ["SPOSURE_DATA": folder.path, "TZ": "UTC"]
            for _ in 0..<2 {
                let refused = try play([], input: input, data: folder)
                #expect(refused.exitCode == 2, "\(refused)")
                #expect(!refused.stdoutLines.contains { $0.contains("\"kind\":\"hold\"") || $0.contains("\"kind\":\"shown\"") }, "\(refused.stdoutLines)")
                #expect(refused.stdoutLines.last == Event.end(0, "quit"))
                let scored = try StageProcess.run("score", arguments: ["--format", "json"], environment: environment,
                                                  stdin: Array(refused.stdoutLines.map { $0 + "\n" }.joined().utf8))
                #expect(scored.exitCode == 0, "\(scored)")
                #expect(scored.stdoutLines.first?.contains("\"holds\":0") == true, "still scored: \(scored.stdoutLines)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/history.ndjson"), "no round kept")
            let history = try StageProcess.run("score", arguments: ["history", "--format", "json"], environment: environment)
            #expect(history.stdoutLines.first?.contains("\"rounds\":0") == true, "\(history)")
        }
    }

    @Test func aRoundWithoutALadderAsksNothingAndNeedsNoNotice() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder, extra: #""provider":"giphy""#)
            let result = try play(["--ratings", try ratingsScript(folder)], input: input, data: folder)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdoutLines == [
                Event.start(),
                Event.shown("a", start: 0, end: 300, exposed: 300, frames: 3, completed: true),
                // The script's digit still rates the GIF on screen.
                #"{"kind":"rated","provider":"giphy","id":"b","rating":8,"t_ms":400}"#,
                Event.shown("b", start: 300, end: 600, exposed: 300, frames: 3, completed: true),
                Event.hold(0, 600),
                Event.end(600, "eof"),
            ])
        }
    }

    @Test func aStillShowsItsFirstFrameForItsWholeTimeAndExposureCounts() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder, firstExtra: #""still":true"#)
            let result = try play(["--accept-notice", "--ratings", "off"], input: input, data: folder)
            let shown = result.stdoutLines.compactMap(jsonObject).filter { $0["kind"] as? String == "shown" }
            #expect(shown.first?["frames"] as? Int == 1, "\(result.stdoutLines)")
            #expect(shown.first?["exposed_ms"] as? Int == 300, "a 1 cs delay plays as 10 cs, as browsers do")
            #expect(shown.last?["frames"] as? Int == 3)
        }
    }

    @Test func imageRecordsOfALadderThroughGifPlayIntoScoreGiveARoundWithTheRatings() throws {
        try withTemporaryDirectory { folder in
            let input = try records(folder)
            let events = try play(["--accept-notice", "--ratings", try ratingsScript(folder)], input: input, data: folder)
            let score = try StageProcess.run("score", arguments: ["--format", "json", "--no-history"],
                                             environment: ["SPOSURE_DATA": folder.path], stdin: events.stdout)
            #expect(score.exitCode == 0, "\(score)")
            let record = score.stdoutLines.compactMap(jsonObject).first { $0["kind"] as? String == "score" }
            let ratings = record?["ratings"] as? [String: Any]
            #expect(ratings?["suds_before"] as? Int == 7, "\(score.stdoutLines)")
            #expect(ratings?["expect_pct"] as? Int == 80)
            #expect(ratings?["peak"] as? Int == 8)
            #expect(ratings?["suds_after"] as? Int == 4)
            #expect(ratings?["happened"] as? Bool == false)
            #expect(record?["gifs_rated"] as? Int == 1)
            let ladder = record?["ladder"] as? [String: Any]
            #expect(ladder?["name"] as? String == "spiders")
            #expect(ladder?["rung"] as? Int == 2)
        }
    }
}
