// End-to-end tests of the built `score` binary over real pipes, each with a
// fresh temporary SPOSURE_DATA, so no test touches a real history.

import Foundation
import HistoryKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ScoreEndToEndTests {
    static let normalRecord = """
        {"kind":"score","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,"gifs_shown":5,"gifs_completed":4,\
        "stalls":1,"stall_ms":120,"errors":1,"error_codes":{"http_404":1},\
        "sections":{"spiders":{"exposed_ms":8480,"gifs_shown":5,"gifs_completed":4}},"points":104,\
        "personal_best":true,"previous_best_ms":null,"incomplete":false,"reason":"released","duration_ms":9800,\
        "at":"2026-11-21T10:00:00Z","clock":"real","bad_lines":0,"distress_before":null,"distress_after":null,"new_gifs":5}
        """

    @Test func writesTheExactScoreRecordAndKeepsTheRound() throws {
        try withTemporaryDirectory { data in
            let result = try runScore([], stdin: Event.normalRound, data: data)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [Self.normalRecord])
            let history = try String(contentsOfFile: data.path + "/history.ndjson", encoding: .utf8)
            #expect(history == """
                {"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,\
                "gifs_shown":5,"gifs_completed":4,"stalls":1,"stall_ms":120,"errors":1,"points":104,"incomplete":false,\
                "duration_ms":9800,"sections":{"spiders":8480},"distress_before":null,"distress_after":null}

                """)
        }
    }

    @Test func marksAPersonalBestAgainstTheHistory() throws {
        try withTemporaryDirectory { data in
            let short = [Event.start(), Event.shown("a", start: 0, end: 5000), Event.hold(0, 5000), Event.end(5000)]
            _ = try runScore([], stdin: Event.normalRound, data: data)
            let worse = try record(try runScore([], stdin: short, data: data))
            #expect(worse.bool("personal_best") == false)
            #expect(worse.int("previous_best_ms") == 8480)
            let longer = Event.normalRound.map { $0 == Event.end(9800) ? Event.shown("f", start: 9800, end: 20_000) + "\n" + Event.end(20_000) : $0 }
            let better = try record(try runScore([], stdin: longer, data: data))
            #expect(better.bool("personal_best") == true)
            #expect(better.int("previous_best_ms") == 8480)
            #expect(try HistoryFile(path: data.path + "/history.ndjson", owner: .program).read().entries.count == 3)
        }
    }

    @Test func recordsTheDistressWithTheRound() throws {
        try withTemporaryDirectory { data in
            let out = try record(try runScore(["--distress", "7,4"], stdin: Event.normalRound, data: data))
            #expect(out.int("distress_before") == 7)
            #expect(out.int("distress_after") == 4)
            let entry = try #require(try HistoryFile(path: data.path + "/history.ndjson", owner: .program).read().entries.first)
            #expect(entry.distress == Distress(before: 7, after: 4))
        }
    }

    @Test func scoresAnIncompleteStreamAndExitsZero() throws {
        try withTemporaryDirectory { data in
            let result = try runScore([], stdin: Array(Event.normalRound.dropLast(2)), data: data)
            #expect(result.exitCode == 0)
            let out = try record(result)
            #expect(out.bool("incomplete") == true)
            #expect(out.has("reason") && out.string("reason") == nil)
            #expect(try #require(try HistoryFile(path: data.path + "/history.ndjson", owner: .program).read().entries.first).incomplete)
        }
    }

    @Test func reportsBadLinesOnStderrAndGoesOn() throws {
        try withTemporaryDirectory { data in
            var lines = Event.normalRound
            lines.insert("this is not json", at: 1)
            lines.insert("[1,2]", at: 4)
            let result = try runScore([], stdin: lines, data: data)
            #expect(result.exitCode == 0)
            let errors = result.stderr.split(separator: "\n")
            #expect(errors.count == 2)
            #expect(errors[0].hasPrefix("score: stdin:2: not a JSON object"))
            #expect(errors[1].hasPrefix("score: stdin:5: not a JSON object"))
            let out = try record(result)
            #expect(out.int("bad_lines") == 2)
            #expect(out.int("exposed_ms") == 8480)
        }
    }

    @Test func quietSilencesTheBadLineWarnings() throws {
        try withTemporaryDirectory { data in
            let result = try runScore(["--quiet"], stdin: ["nope"] + Event.normalRound, data: data)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
        }
    }

    @Test func exitsOneWhenTheInputHoldsNoRound() throws {
        try withTemporaryDirectory { data in
            let result = try runScore([], stdin: [Event.error("http_404"), #"{"kind":"image","id":"a"}"#], data: data)
            #expect(result.exitCode == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("score: no round to score"))
            #expect(!FileManager.default.fileExists(atPath: data.path + "/history.ndjson"))
        }
    }

    @Test func exitsTwoAndStillReportsWhenTheHistoryCannotBeWritten() throws {
        try withTemporaryDirectory { dir in
            let blocker = dir.appendingPathComponent("not-a-folder")
            try "x".write(to: blocker, atomically: false, encoding: .utf8)
            let result = try runScore([], stdin: Event.normalRound, data: blocker)
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("score: history: cannot"))
            let out = try record(result)
            #expect(out.int("exposed_ms") == 8480)
            #expect(out.has("personal_best") && out.bool("personal_best") == nil)
        }
    }

    @Test func givesByteIdenticalOutputForTheSameInputWithoutHistory() throws {
        try withTemporaryDirectory { data in
            let virtual = [Event.start(at: nil, clock: "virtual")] + Event.normalRound.dropFirst()
            for format in ["json", "text"] {
                let first = try runScore(["--no-history", "--format", format], stdin: virtual, data: data)
                let second = try runScore(["--no-history", "--format", format], stdin: virtual, data: data)
                #expect(first.exitCode == 0)
                #expect(first.stdout == second.stdout)
                #expect(!first.stdout.isEmpty)
            }
            #expect(!FileManager.default.fileExists(atPath: data.path + "/history.ndjson"))
        }
    }

    @Test func datesAVirtualClockRoundWithAt() throws {
        try withTemporaryDirectory { data in
            let virtual = [Event.start(at: nil, clock: "virtual")] + Event.normalRound.dropFirst()
            let out = try record(try runScore(["--at", "2026-12-24T18:30:00+01:00"], stdin: virtual, data: data))
            #expect(out.string("at") == "2026-12-24T17:30:00Z")
            #expect(try HistoryFile(path: data.path + "/history.ndjson", owner: .program).read().entries.first?.at == "2026-12-24T17:30:00Z")
        }
    }

    @Test func printsTheGameOverScreenWithoutColourWhenAsked() throws {
        try withTemporaryDirectory { data in
            let result = try runScore(["--format", "text", "--no-history"], stdin: Event.normalRound, data: data)
            #expect(result.exitCode == 0)
            #expect(result.stdoutLines.first == "  G A M E   O V E R")
            #expect(result.stdoutLines.contains("  Exposure      8.4s"))
            #expect(!result.stdout.contains(0x1B))
        }
    }

    @Test func printsTheShareLine() throws {
        try withTemporaryDirectory { data in
            let result = try runScore(["--share"], stdin: Event.normalRound, data: data)
            #expect(result.stdoutLines == ["Held on 8.4s through 5 GIFs of spiders — personal best"])
        }
    }

    @Test func refusesBadUsageWithExitCode64() throws {
        try withTemporaryDirectory { data in
            for arguments in [["--distress", "11,2"], ["--distress", "7"], ["--at", "soon"], ["--format", "xml"],
                              ["history", "--last", "0"], ["history", "--share"], ["--no-history", "--history-file", "x"]] {
                let result = try runScore(arguments, stdin: [], data: data)
                #expect(result.exitCode == 64, "\(arguments)")
                #expect(!result.stderr.isEmpty)
            }
        }
    }

    @Test func endsQuietlyWhenStdoutCloses() throws {
        try withTemporaryDirectory { data in
            let result = try StageProcess.run(
                "score", arguments: ["--format", "text", "--no-history"],
                environment: ["SPOSURE_DATA": data.path], stdin: stream(Event.normalRound), closeStdoutAfterLines: 1)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
        }
    }

    @Test func keepsEveryRoundOfTwoScoresRunningAtOnce() throws {
        try withTemporaryDirectory { data in
            func rounds(_ base: Int) -> [String] {
                (0..<100).flatMap { (index: Int) -> [String] in
                    [Event.start(), Event.shown("g", start: 0, end: base + index), Event.hold(0, base + index), Event.end(base + index)]
                }
            }
            let first = try StageProcess("score", arguments: [], environment: ["SPOSURE_DATA": data.path], stdin: stream(rounds(10_000)))
            let second = try StageProcess("score", arguments: [], environment: ["SPOSURE_DATA": data.path], stdin: stream(rounds(20_000)))
            let results = [first.wait(), second.wait()]
            #expect(results.map(\.exitCode) == [0, 0])
            #expect(results.map(\.stdoutLines.count) == [100, 100])
            let contents = try HistoryFile(path: data.path + "/history.ndjson", owner: .program).read()
            #expect(contents.problems.isEmpty)
            let kept: Set<Int> = Set((0..<100).flatMap { (index: Int) -> [Int] in [10_000 + index, 20_000 + index] })
            #expect(Set(contents.entries.map(\.exposedMs)) == kept)
        }
    }

    @Test func scoresAndKeepsTheRoundReadBeforeASignal() throws {
        try withTemporaryDirectory { data in
            let process = try StageProcess(
                "score", arguments: [], environment: ["SPOSURE_DATA": data.path],
                stdin: stream(Array(Event.normalRound.dropLast(2))), keepStdinOpen: true)
            try waitUntilSignalsAreTrapped(process.pid)
            process.send(signal: SIGINT)
            // stdin stays open: the grace period ends the wait.
            let result = process.wait()
            #expect(result.exitCode == 130)
            let out = try record(result)
            #expect(out.bool("incomplete") == true)
            #expect(out.int("exposed_ms") == 8480)
            #expect(try HistoryFile(path: data.path + "/history.ndjson", owner: .program).read().entries.count == 1)
        }
    }

    @Test func readsTheSessionEndTheInterruptedPlayerStillWrites() throws {
        try withTemporaryDirectory { data in
            let process = try StageProcess(
                "score", arguments: [], environment: ["SPOSURE_DATA": data.path],
                stdin: stream(Array(Event.normalRound.dropLast(2))), keepStdinOpen: true)
            try waitUntilSignalsAreTrapped(process.pid)
            process.send(signal: SIGINT)
            process.feed(stream([Event.hold(1200, 9800), Event.end(9800, reason: "interrupted")]))
            process.closeStdin()
            let result = process.wait()
            #expect(result.exitCode == 130)
            let out = try record(result)
            #expect(out.bool("incomplete") == false)
            #expect(out.string("reason") == "interrupted")
        }
    }

    @Test func showsTheLifetimeStatisticsAndDrawsTheChart() throws {
        try withTemporaryDirectory { data in
            for (index, distress) in ["8,6", "7,4", "6,3"].enumerated() {
                let lines = [Event.start(at: "2026-11-2\(index + 1)T10:00:00Z"), Event.shown("a", start: 0, end: 10_000 * (index + 1)), Event.end(10_000 * (index + 1))]
                _ = try runScore(["--distress", distress], stdin: lines, data: data)
            }
            let json = try runScore(["history"], stdin: [], data: data)
            #expect(json.exitCode == 0)
            #expect(json.stdoutLines == ["""
                {"kind":"history","rounds":3,"total_exposed_ms":60000,"average_exposed_ms":20000,\
                "best":{"round":3,"at":"2026-11-23T10:00:00Z","exposed_ms":30000,"points":305},\
                "trend":{"window":1,"recent_mean_ms":30000,"previous_mean_ms":20000,"change_ms":10000,"direction":"up"},\
                "distress":{"rated_rounds":3,"mean_before":7.0,"mean_after":4.3,"mean_drop":2.7,"window":1,\
                "early_before":8.0,"recent_before":6.0,"falling":true},\
                "first_at":"2026-11-21T10:00:00Z","last_at":"2026-11-23T10:00:00Z"}
                """])
            let plot = data.path + "/chart.svg"
            let text = try runScore(["history", "--format", "text", "--plot", plot, "--last", "2"], stdin: [], data: data)
            #expect(text.exitCode == 0)
            #expect(text.stdoutLines.first == "  Sposure: 2 rounds, 2026-11-22 to 2026-11-23")
            #expect(text.stdoutLines.contains { $0.contains("▆█") })
            let shape = try parse(try String(contentsOfFile: plot, encoding: .utf8))
            #expect(shape.circles["round"] == 2)
        }
    }

    @Test func reportsATornLastLineOfTheHistory() throws {
        try withTemporaryDirectory { data in
            _ = try runScore([], stdin: Event.normalRound, data: data)
            let path = data.path + "/history.ndjson"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"kind":"round","exposed"#.utf8))
            try handle.close()
            let history = try runScore(["history"], stdin: [], data: data)
            #expect(history.exitCode == 0)
            #expect(history.stderr == "score history: \(path):2: a torn last line (an interrupted write), ignored\n")
            #expect(try record(history).int("rounds") == 1)
            let again = try runScore([], stdin: Event.normalRound, data: data)
            #expect(again.exitCode == 0)
            #expect(again.stderr.contains("torn last line"))
            let contents = try HistoryFile(path: path, owner: .program).read()
            #expect(contents.problems.isEmpty)
            #expect(contents.entries.count == 2)
        }
    }

    @Test func exitsTwoWhenTheChartCannotBeWritten() throws {
        try withTemporaryDirectory { data in
            let result = try runScore(["history", "--plot", data.path + "/no/such/dir/chart.svg"], stdin: [], data: data)
            #expect(result.exitCode == 2)
            #expect(result.stderr == "score history: --plot: cannot write \(data.path)/no/such/dir/chart.svg: No such file or directory\n",
                    "the chart's name, not its temporary file's")
            #expect(try record(result).int("rounds") == 0)
        }
    }

    /// The chart was renamed over whatever the path named: the history
    /// itself (every round lost), or, as root, /dev/stdout's device node.
    @Test func theChartNeverReplacesTheHistoryOrADevice() throws {
        try withTemporaryDirectory { data in
            _ = try runScore([], stdin: [Event.start(), Event.hold(0, 2000), Event.end(2000)], data: data)
            let history = data.path + "/history.ndjson"
            let before = try String(contentsOfFile: history, encoding: .utf8)
            let refused = try runScore(["history", "--plot", history], stdin: [], data: data)
            #expect(refused.exitCode == 64, "\(refused)")
            #expect(refused.stderr.contains("--plot \(history) is the history itself; name another file."), "\(refused.stderr)")
            #expect(try String(contentsOfFile: history, encoding: .utf8) == before)

            // Into a pipe: the chart, then the report.
            let piped = try runScore(["history", "--format", "json", "--plot", "/dev/stdout"], stdin: [], data: data)
            #expect(piped.exitCode == 0, "\(piped)")
            let text = String(decoding: piped.stdout, as: UTF8.self)
            #expect(text.hasPrefix("<svg") || text.hasPrefix("<?xml"), "\(text.prefix(80))")
            #expect(text.contains("</svg>"))
            #expect(piped.stdoutLines.last?.hasPrefix(#"{"kind":"history""#) == true, "\(piped.stdoutLines.last ?? "")")
        }
    }
}

/// Runs `score` with `arguments`, the lines on stdin and SPOSURE_DATA set to `data`.
private func runScore(_ arguments: [String], stdin lines: [String], data: URL) throws -> StageProcess.Result {
    let result = try StageProcess.run(
        "score", arguments: arguments, environment: ["SPOSURE_DATA": data.path],
        unsetEnvironment: ["XDG_DATA_HOME"], stdin: stream(lines))
    #expect(!result.timedOut)
    return result
}

/// The one record a run wrote.
private func record(_ result: StageProcess.Result) throws -> JSONRecord {
    #expect(result.stdoutLines.count == 1)
    return try JSONRecord.parse(try #require(result.stdoutLines.first))
}

/// Waits until the child blocks SIGINT (SignalTrap has taken it over): before
/// that, a SIGINT would kill it instead of being scored.
private func waitUntilSignalsAreTrapped(_ pid: Int32) throws {
    for _ in 0..<2000 {
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
           let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16),
           mask & (1 << (UInt64(SIGINT) - 1)) != 0 {
            return
        }
        usleep(10_000)
    }
    Issue.record("score never trapped SIGINT")
}
