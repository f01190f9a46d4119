// End-to-end tests of the built `score` binary that a case folder cannot
// hold: a closed stdout, two scores at once, a signal. Its runs over an event
// stream or a history are cases in Tests/Fixtures/score/.

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
