// End-to-end tests of the ladder over the built `score` and `giphy-pages`:
// a history with ratings makes `plan --ladder` pick the right rung, a re-test
// comes due after 7 days, the CSV's columns, the ladder table and bad files.

import Foundation
import ScoreKit
import SposureKit
import Testing
import TestSupport

/// The events of a ladder round on `rung` of spiders, `exposed` ms long, rated as given.
func ladderRound(at: String, rung: Int, exposed: Int = 61_000, before: Int = 6, expect: Int = 70, peak: Int = 7,
                 after: Int, reason: String = "released", retest: Bool = false) -> [String] {
    [
        Event.start(at: at, clock: "virtual"),
        "{\"kind\":\"rating\",\"when\":\"before\",\"suds\":\(before),\"expect_pct\":\(expect)}",
        "{\"kind\":\"shown\",\"id\":\"g\(rung)\",\"section\":\"s\",\"ladder\":\"spiders\",\"rung\":\(rung),\"rung_suds\":\(rung * 5)\(retest ? ",\"retest\":true" : ""),\"start_ms\":0,\"end_ms\":\(exposed),\"exposed_ms\":\(exposed),\"frames\":10,\"completed\":true}",
        "{\"kind\":\"rated\",\"provider\":\"giphy\",\"id\":\"hot\",\"rating\":9,\"t_ms\":500}",
        Event.hold(0, exposed),
        "{\"kind\":\"rating\",\"when\":\"after\",\"peak\":\(peak),\"suds\":\(after),\"happened\":false}",
        Event.end(exposed, reason: reason),
    ]
}

@Suite struct LadderEndToEndTests {
    func environment(_ folder: URL) -> [String: String] {
        ["SPOSURE_DATA": folder.path + "/data", "SPOSURE_CONFIG": folder.path + "/config"]
    }

    func score(_ arguments: [String], _ lines: [String], _ folder: URL) throws -> StageProcess.Result {
        try StageProcess.run("score", arguments: arguments, environment: environment(folder), stdin: stream(lines))
    }

    func plan(_ arguments: [String], _ folder: URL) throws -> StageProcess.Result {
        try StageProcess.run("giphy-pages", arguments: ["plan", "--provider", "giphy", "--no-ping", "--total", "10"] + arguments, environment: environment(folder))
    }

    @Test func aHistoryWithRatingsMakesPlanPickTheRung() throws {
        try withTemporaryDirectory { folder in
            #expect(try plan(["--ladder", "spiders", "--now", "2026-11-20T09:00:00Z"], folder).stdoutLines.first?.contains("\"rung\":1,") == true)
            let first = try score(["--format", "json", "--now", "2026-11-20T11:00:00Z"],
                                  ladderRound(at: "2026-11-20T10:00:00Z", rung: 1, after: 2), folder)
            #expect(first.exitCode == 0)
            let out = try JSONRecord.parse(try #require(first.stdoutLines.first))
            #expect(out.object("ladder")?.string("step") == "stay")
            #expect(out.object("ratings")?.text == "{\"suds_before\":6,\"expect_pct\":70,\"peak\":7,\"suds_after\":2,\"happened\":false}")
            #expect(out.int("distress_before") == 6 && out.int("distress_after") == 2)
            // 61 s on rung 1 (SUDS 5): 610 × 55 / 50.
            #expect(out.int("points") == 671)
            // Issue 28: without --now this read the wall clock, and from 2026-11-27 on (seven
            // days after the first round) a re-test was due and the step said rung 1.
            let second = try score(["--format", "json", "--now", "2026-11-21T11:00:00Z"],
                                   ladderRound(at: "2026-11-21T10:00:00Z", rung: 1, after: 3), folder)
            let step = try JSONRecord.parse(try #require(second.stdoutLines.first)).object("ladder")
            #expect(step?.string("step") == "up")
            #expect(step?.int("next_rung") == 2)
            let pages = try plan(["--ladder", "spiders", "--now", "2026-11-22T10:00:00Z"], folder)
            #expect(pages.exitCode == 0)
            #expect(pages.stdoutLines.count == 1)
            // The ladder's avoid list follows the ladder's fields (issue 22).
            #expect(pages.stdoutLines.first?.hasPrefix("""
                {"kind":"page","endpoint":"search","query":"cute cartoon spider","section":"cute cartoon spider","offset":0,"limit":10,"rating":"g","lang":"en","total":10,"ladder":"spiders","rung":2,"rung_suds":10,"avoid":["spider-man",
                """) == true, "\(pages.stdoutLines)")
            // --rung always wins.
            #expect(try plan(["--ladder", "spiders", "--rung", "5", "--now", "2026-11-22T10:00:00Z"], folder).stdoutLines.first?.contains("\"rung\":5,") == true)
            // The digit ratings are kept beside the history, with the ladder and rung.
            let ratings = try String(contentsOfFile: folder.path + "/data/ratings.ndjson", encoding: .utf8)
            #expect(ratings.split(separator: "\n").first == "{\"kind\":\"rated\",\"provider\":\"giphy\",\"id\":\"hot\",\"rating\":9,\"ladder\":\"spiders\",\"rung\":1,\"at\":\"2026-11-20T10:00:00Z\"}")
        }
    }

    @Test func aRetestIsDueAfterSevenDaysAndFearThatCameBackPutsTheLadderBack() throws {
        try withTemporaryDirectory { folder in
            _ = try score([], ladderRound(at: "2026-11-20T10:00:00Z", rung: 1, after: 2), folder)
            _ = try score([], ladderRound(at: "2026-11-21T10:00:00Z", rung: 1, after: 2), folder)
            _ = try score([], ladderRound(at: "2026-11-22T10:00:00Z", rung: 2, after: 2), folder)
            _ = try score([], ladderRound(at: "2026-11-23T10:00:00Z", rung: 2, after: 2), folder)
            // Rung 1 was mastered on the 21st: nothing due on the 27th, a re-test on the 28th.
            #expect(try plan(["--ladder", "spiders", "--now", "2026-11-27T10:00:00Z"], folder).stdoutLines.first?.contains("\"rung\":3,") == true)
            let due = try plan(["--ladder", "spiders", "--now", "2026-11-28T10:00:00Z"], folder).stdoutLines.first ?? ""
            #expect(due.contains("\"rung\":1,\"rung_suds\":5,\"retest\":true"))
            let table = try score(["ladder", "spiders", "--now", "2026-11-28T10:00:00Z"], [], folder)
            let record = try JSONRecord.parse(try #require(table.stdoutLines.first))
            #expect(record.int("next_rung") == 1)
            #expect(record.bool("next_retest") == true)
            #expect(record.string("why") == "re-test of rung 1, mastered 7 days ago")
            // The re-test: fear came back (distress after 6 ≥ 5).
            let back = try score(["--format", "json", "--now", "2026-11-28T11:00:00Z"],
                                 ladderRound(at: "2026-11-28T10:00:00Z", rung: 1, after: 6, retest: true), folder)
            let ladder = try JSONRecord.parse(try #require(back.stdoutLines.first)).object("ladder")
            #expect(ladder?.bool("retest") == true)
            #expect(ladder?.int("next_rung") == 1)
            #expect(ladder?.string("step") == "back", "the re-test rule, not a step down (the rung number fell from 2 to 1)")
            #expect(try plan(["--ladder", "spiders", "--now", "2026-11-29T10:00:00Z"], folder).stdoutLines.first?.contains("\"rung\":1,\"rung_suds\":5,\"still\":true") == true)
        }
    }

    @Test func exportsOneCSVRowPerRound() throws {
        try withTemporaryDirectory { folder in
            _ = try score([], ladderRound(at: "2026-11-20T10:00:00Z", rung: 1, after: 2), folder)
            _ = try score(["--distress", "7,4"], [Event.start(at: "2026-11-21T09:30:00Z"), Event.shown("a", start: 0, end: 2000), Event.end(2000)], folder)
            let csv = try score(["history", "--export", "csv"], [], folder)
            #expect(csv.exitCode == 0)
            #expect(csv.stdoutLines == [
                "date,time_utc,ladder,rung,rung_suds,retest,exposed_s,longest_hold_s,holds,gifs_shown,points,distress_before,expect_pct,peak,distress_after,happened,ended,incomplete",
                "2026-11-20,10:00:00,spiders,1,5,no,61.0,61.0,1,1,671,6,70,7,2,no,released,no",
                "2026-11-21,09:30:00,,,,,2.0,0.0,0,1,25,7,,,4,,,no",
            ])
        }
    }

    @Test func historyAddsTodayTheStreakRungsAndExpectancy() throws {
        try withTemporaryDirectory { folder in
            _ = try score([], ladderRound(at: "2026-11-20T10:00:00Z", rung: 1, after: 2), folder)
            _ = try score([], ladderRound(at: "2026-11-21T10:00:00Z", rung: 1, after: 4), folder)
            let history = try StageProcess.run("score", arguments: ["history", "--now", "2026-11-21T12:00:00Z"],
                                               environment: environment(folder).merging(["TZ": "UTC"]) { $1 })
            let record = try JSONRecord.parse(try #require(history.stdoutLines.first))
            #expect(record.object("practice")?.text == "{\"rounds_today\":1,\"exposed_ms_today\":61000,\"streak_days\":2,\"days_this_week\":2,\"recommended_days\":\"3-5\"}")
            #expect(record.object("expectancy")?.text == "{\"rounds\":2,\"mean_expected_pct\":70,\"happened_pct\":0}")
            #expect(history.stdoutLines.first?.contains("\"rungs\":[{\"ladder\":\"spiders\",\"rung\":1,\"rounds\":2,\"mean_before\":6.0,\"mean_after\":3.0}]") == true)
        }
    }

    /// Issue "Hostile input, third pass", item 7: a round that never reached a
    /// hold (q at the notice or at the first question: a rating before, then
    /// the end) is scored but not kept, so it is not a round today nor a day
    /// of the streak, and the ladder does not move.
    @Test func aRoundThatNeverReachedAHoldIsNotKept() throws {
        try withTemporaryDirectory { folder in
            _ = try score([], ladderRound(at: "2026-11-20T10:00:00Z", rung: 1, after: 2), folder)
            let declined = [Event.start(at: "2026-11-21T10:00:00Z"), Event.end(0, reason: "quit")]
            let quitAtAQuestion = [Event.start(at: "2026-11-21T10:05:00Z"),
                                   "{\"kind\":\"rating\",\"when\":\"before\",\"suds\":7}", Event.end(900, reason: "quit")]
            for lines in [declined, quitAtAQuestion] {
                let result = try score(["--format", "json"], lines, folder)
                #expect(result.exitCode == 0, "\(result)")
                #expect(result.stdoutLines.count == 1, "\(result)")
            }
            let kept = try String(contentsOfFile: folder.path + "/data/history.ndjson", encoding: .utf8)
            #expect(kept.split(separator: "\n").count == 1, "\(kept)")
            let history = try StageProcess.run("score", arguments: ["history", "--now", "2026-11-21T12:00:00Z"],
                                               environment: environment(folder).merging(["TZ": "UTC"]) { $1 })
            let record = try JSONRecord.parse(try #require(history.stdoutLines.first))
            #expect(record.object("practice")?.int("rounds_today") == 0, "\(history.stdoutLines)")
            #expect(record.int("rounds") == 1, "\(history.stdoutLines)")
        }
    }

    /// Days of practice are local days, in the zone `TZ` names, summer time
    /// included (read through the C library: without ICU, Foundation's own
    /// zone would always be GMT).
    @Test(arguments: [
        // Rounds at 20:00 and 23:00 UTC on November 20, now 01:00 UTC on the 21st.
        ("UTC", "2026-11-20T20:00:00Z", "2026-11-20T23:00:00Z", "2026-11-21T01:00:00Z", 0),
        ("Asia/Tokyo", "2026-11-20T20:00:00Z", "2026-11-20T23:00:00Z", "2026-11-21T01:00:00Z", 2),  // all the 21st
        ("America/New_York", "2026-11-20T20:00:00Z", "2026-11-20T23:00:00Z", "2026-11-21T01:00:00Z", 2),  // all the 20th
        ("Asia/Kolkata", "2026-11-20T20:00:00Z", "2026-11-20T23:00:00Z", "2026-11-21T01:00:00Z", 2),  // +5:30
        ("Europe/Berlin", "2026-11-20T20:00:00Z", "2026-11-20T23:00:00Z", "2026-11-21T01:00:00Z", 1),  // +1: 00:00 is the 21st
        // Summer: Berlin is +2, so 21:30 UTC is 23:30 on the 20th and 22:30 UTC is the 21st.
        ("Europe/Berlin", "2026-07-20T20:00:00Z", "2026-07-20T21:30:00Z", "2026-07-20T22:30:00Z", 0),
    ])
    func todayIsTheDayWhereTZSays(_ zone: String, _ first: String, _ second: String, _ now: String, _ today: Int) throws {
        try withTemporaryDirectory { folder in
            _ = try score([], ladderRound(at: first, rung: 1, after: 2), folder)
            _ = try score([], ladderRound(at: second, rung: 1, after: 2), folder)
            let history = try StageProcess.run("score", arguments: ["history", "--now", now],
                                               environment: environment(folder).merging(["TZ": zone]) { $1 })
            let practice = try JSONRecord.parse(try #require(history.stdoutLines.first)).object("practice")
            #expect(practice?.int("rounds_today") == today, "\(zone) \(now)")
        }
    }

    /// A rung of the person's own GIFs: plan writes an image record for each
    /// `.gif` in the folder, by name, no key and no network; a folder that
    /// is not there, or holds no GIF, is one line naming the ladder, the
    /// rung and why.
    @Test func aFolderRungPlaysThePersonsOwnGIFs() throws {
        try withTemporaryDirectory { folder in
            let ladders = folder.path + "/config/ladders"
            let gifs = folder.path + "/my gifs"
            try FileManager.default.createDirectory(atPath: ladders, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: gifs, withIntermediateDirectories: true)
            for name in ["b.GIF", "a.gif", "notes.txt"] { FileManager.default.createFile(atPath: gifs + "/" + name, contents: Data("x".utf8)) }
            let copied = try score(["ladder", "dogs", "--copy"], [], folder)
            var text = try String(contentsOfFile: try #require(copied.stdoutLines.first), encoding: .utf8)
            let first = try #require(text.range(of: #"\{"query[^\n]*"suds": 5"#, options: .regularExpression))
            text.replaceSubrange(first, with: "{\"dir\": \(quoteJSON(gifs)), \"suds\": 5")
            try text.write(toFile: ladders + "/dogs.json", atomically: true, encoding: .utf8)

            let planned = try plan(["--ladder", "dogs", "--rung", "1"], folder)
            #expect(planned.exitCode == 0, "\(planned)")
            let tags = #""ladder":"dogs","rung":1,"rung_suds":5,"still":true}"#
            #expect(planned.stdoutLines == ["a.gif", "b.GIF"].map {
                #"{"kind":"image","provider":"local","id":"\#($0)","section":"my gifs","path":"\#(gifs)/\#($0)","# + tags
            })

            try FileManager.default.removeItem(atPath: gifs + "/a.gif")
            try FileManager.default.removeItem(atPath: gifs + "/b.GIF")
            let empty = try plan(["--ladder", "dogs", "--rung", "1"], folder)
            #expect(empty.exitCode == 64)
            #expect(empty.stdoutLines.isEmpty)
            #expect(empty.stderr.hasSuffix("giphy-pages plan: \(ladders)/dogs.json: rung 1, \"dir\": \(gifs): holds no .gif file\n"), "\(empty.stderr)")
            try FileManager.default.removeItem(atPath: gifs)
            let gone = try plan(["--ladder", "dogs", "--rung", "1"], folder)
            #expect(gone.exitCode == 64)
            #expect(gone.stderr.hasSuffix("giphy-pages plan: \(ladders)/dogs.json: rung 1, \"dir\": \(gifs): No such file or directory\n"), "\(gone.stderr)")
        }
    }

    /// Issue "Hostile input, third pass", item 9: a `dir` rung problem (a
    /// missing folder, `/dev/zero`) exited 1 without naming the ladder file,
    /// and a relative `dir` was read from the current folder. It is a problem
    /// of the file (exit 64, the file named), and a relative `dir` is read
    /// from beside the file.
    @Test func aFolderRungIsReadFromBesideItsLadderFile() throws {
        try withTemporaryDirectory { folder in
            let ladders = folder.path + "/config/ladders"
            try FileManager.default.createDirectory(atPath: ladders + "/mine", withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: ladders + "/mine/a.gif", contents: Data("x".utf8))
            let copied = try score(["ladder", "dogs", "--copy"], [], folder)
            let original = try String(contentsOfFile: try #require(copied.stdoutLines.first), encoding: .utf8)
            func rungOne(dir: String) throws {
                var text = original
                let first = try #require(text.range(of: #"\{"query[^\n]*"suds": 5"#, options: .regularExpression))
                text.replaceSubrange(first, with: "{\"dir\": \(quoteJSON(dir)), \"suds\": 5")
                try text.write(toFile: ladders + "/dogs.json", atomically: true, encoding: .utf8)
            }
            try rungOne(dir: "mine")
            // Run from elsewhere: the folder is the ladder's, not the current one.
            let planned = try StageProcess("giphy-pages", arguments: ["plan", "--ladder", "dogs", "--rung", "1"],
                                           environment: environment(folder), currentDirectory: URL(fileURLWithPath: "/")).wait(timeout: 60)
            #expect(planned.exitCode == 0, "\(planned)")
            #expect(planned.stdoutLines.first?.contains(#""path":"\#(ladders)/mine/a.gif""#) == true, "\(planned.stdoutLines)")

            // Item 9 too: a .gif whose name is not UTF-8 was written under another name, then failed as not_found.
            let bad = Array((ladders + "/mine/b").utf8) + [0xFF] + Array(".gif".utf8) + [0]
            let fd = bad.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
            #expect(fd >= 0)
            close(fd)
            let skipping = try plan(["--ladder", "dogs", "--rung", "1"], folder)
            #expect(skipping.exitCode == 0, "\(skipping)")
            #expect(skipping.stdoutLines.count == 1, "only a.gif: \(skipping.stdoutLines)")
            #expect(skipping.stderr.contains("\(ladders)/mine/b\\xFF.gif: the name is not UTF-8, left out (rename it)"), "\(skipping.stderr)")
            try rungOne(dir: "/dev/zero")
            let device = try plan(["--ladder", "dogs", "--rung", "1"], folder)
            #expect(device.exitCode == 64, "\(device)")
            #expect(device.stderr.hasSuffix("giphy-pages plan: \(ladders)/dogs.json: rung 1, \"dir\": /dev/zero: not a folder\n"), "\(device.stderr)")
        }
    }

    /// The list of ladders keeps them under a key of their own: a ladder
    /// named "kind" (a valid name) replaced the record's kind.
    @Test func theListOfLaddersHoldsAnyName() throws {
        try withTemporaryDirectory { folder in
            let ladders = folder.path + "/config/ladders"
            try FileManager.default.createDirectory(atPath: ladders, withIntermediateDirectories: true)
            let copied = try score(["ladder", "dogs", "--copy"], [], folder)
            let text = try String(contentsOfFile: try #require(copied.stdoutLines.first), encoding: .utf8)
            for name in ["kind", "folder"] {
                try text.replacingOccurrences(of: "\"name\": \"dogs\"", with: "\"name\": \"\(name)\"")
                    .write(toFile: ladders + "/\(name).json", atomically: true, encoding: .utf8)
            }
            let listed = try score(["ladder", "--format", "json"], [], folder)
            #expect(listed.exitCode == 0, "\(listed)")
            let record = try JSONRecord.parse(try #require(listed.stdoutLines.first))
            #expect(record.kind == "ladders")
            #expect(record.string("folder") == ladders)
            let names = try #require(record.object("ladders"))
            #expect(names.string("spiders") == "built-in")
            #expect(names.string("kind") == ladders + "/kind.json")
            #expect(names.string("dogs") == ladders + "/dogs.json")
            #expect(names.keys.suffix(2) == ["folder", "kind"], "the person's own after the built-ins, sorted")
            #expect(try score(["ladder", "kind"], [], folder).exitCode == 0)
        }
    }

    @Test func aBadLadderFileIsOneMessageAndExit64() throws {
        try withTemporaryDirectory { folder in
            let ladders = folder.path + "/config/ladders"
            try FileManager.default.createDirectory(atPath: ladders, withIntermediateDirectories: true)
            let copy = try score(["ladder", "dogs", "--copy"], [], folder)
            #expect(copy.stdoutLines == [ladders + "/dogs.json"])
            var text = try String(contentsOfFile: ladders + "/dogs.json", encoding: .utf8)
            text = text.replacingOccurrences(of: "\"suds\": 50}", with: "\"suds\": 30}")
            try text.write(toFile: ladders + "/dogs.json", atomically: true, encoding: .utf8)
            let message = "\(ladders)/dogs.json: rung 6, \"suds\": 30 falls below rung 5's 40 (SUDS rise from rung to rung)"
            let planned = try plan(["--ladder", "dogs"], folder)
            #expect(planned.exitCode == 64)
            #expect(planned.stdoutLines.isEmpty)
            #expect(planned.stderr == "giphy-pages plan: \(message)\n")
            let shown = try score(["ladder", "dogs"], [], folder)
            #expect(shown.exitCode == 64)
            #expect(shown.stderr == "score ladder: \(message)\n")
        }
    }

    /// Issue "Hostile input, third pass", item 9: `score ladder unknown --copy`
    /// exited 1 where `score ladder unknown` exits 64; a name that is no
    /// ladder is a usage error both ways.
    @Test func anUnknownLadderIsAUsageErrorWithOrWithoutCopy() throws {
        try withTemporaryDirectory { folder in
            for arguments in [["ladder", "unknown"], ["ladder", "unknown", "--copy"]] {
                let result = try score(arguments, [], folder)
                #expect(result.exitCode == 64, "\(arguments): \(result)")
                #expect(result.stderr.contains("unknown"), "\(arguments): \(result.stderr)")
                #expect(result.stdoutLines.isEmpty)
            }
        }
    }

    /// Issue "Hostile input, third pass", item 9: a bad `--now` under `score
    /// ladder` or `score history` printed the top-level usage; `--rung -1`
    /// said "Missing value". Each is its own command's usage error, exit 64.
    @Test func aBadNowOrANegativeRungIsTheCommandsOwnUsageError() throws {
        try withTemporaryDirectory { folder in
            for command in ["ladder", "history"] {
                let result = try score([command, "--now", "soon"], [], folder)
                #expect(result.exitCode == 64, "\(command): \(result)")
                #expect(result.stderr.contains("--now soon"), "\(command): \(result.stderr)")
                #expect(result.stderr.contains("Usage: score \(command)"), "\(command): \(result.stderr)")
            }
            let round = try score(["--now", "soon"], [], folder)
            #expect(round.exitCode == 64, "\(round)")
            #expect(round.stderr.contains("--now soon"), "\(round.stderr)")
            let planned = try plan(["--ladder", "spiders", "--rung", "-1"], folder)
            #expect(planned.exitCode == 64, "\(planned)")
            #expect(planned.stderr.contains("--rung must be at least 1"), "\(planned.stderr)")
            #expect(!planned.stderr.contains("Missing value"), "\(planned.stderr)")
        }
    }

    @Test func theGameOverScreenSaysTheStepAndTheNextRung() throws {
        try withTemporaryDirectory { folder in
            _ = try score([], ladderRound(at: "2026-11-20T10:00:00Z", rung: 1, after: 2), folder)
            let text = try score(["--format", "text", "--now", "2026-11-21T11:00:00Z"],
                                 ladderRound(at: "2026-11-21T10:00:00Z", rung: 1, after: 3), folder)
            #expect(text.exitCode == 0)
            #expect(Array(text.stdoutLines.suffix(6)) == [
                "  Ladder        spiders, rung 1 (expected distress 0.5 of 10)",
                "  Step          up to rung 2: the last 2 counted rounds on rung 1 ended calm",
                "  Next round    rung 2",
                "  Peak          7 of 10",
                "  Expected      70% likely; it did not happen",
                "  Self-help practice, not a treatment: let go or press q to stop at any time.",
            ])
        }
    }

    @Test func aRoundWithoutALadderScoresAsBefore() throws {
        try withTemporaryDirectory { folder in
            let out = try score(["--format", "json"], Event.normalRound, folder)
            // As before, but for the GIFs new to the query (issue 22): all five, in a first round.
            #expect(out.stdoutLines.first?.hasSuffix("\"distress_before\":null,\"distress_after\":null,\"new_gifs\":5}") == true)
        }
    }
}
