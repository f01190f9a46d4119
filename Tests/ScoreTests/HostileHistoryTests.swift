// score and score history over a history file that is hostile or broken by
// hand: not a file at all (a FIFO hung both, /dev/zero grew to 17 GB), a
// line of many megabytes, a byte-order mark, times past any round (their
// sums crashed every later report), and a torn last line that was a hand
// edit (removed with no copy).

import Foundation
import SposureKit
import TestSupport
import Testing

@Suite struct HostileHistoryTests {
    private func score(_ arguments: [String], _ lines: [String] = [], data: URL) throws -> StageProcess.Result {
        let result = try StageProcess.run("score", arguments: arguments, environment: ["SPOSURE_DATA": data.path],
                                          unsetEnvironment: ["XDG_DATA_HOME"], stdin: stream(lines), timeout: 30)
        #expect(!result.timedOut, "killed after 30 s: \(result)")
        return result
    }

    private let round = [Event.start(), Event.shown("a", start: 0, end: 2000, exposed: 2000), Event.hold(0, 2000), Event.end(2000)]

    @Test func aHistoryThatIsNoFileIsOneMessageNotAHang() throws {
        try withTemporaryDirectory { data in
            let fifo = data.path + "/fifo.ndjson"
            #expect(mkfifo(fifo, 0o600) == 0)
            for path in [fifo, "/dev/zero"] {
                let report = try score(["history", "--history-file", path], data: data)
                #expect(report.exitCode == 2, "\(report)")
                #expect(report.stderr == "score history: history: cannot read \(path): not a regular file\n", "\(report.stderr)")
                let kept = try score(["--history-file", path, "--format", "json"], round, data: data)
                #expect(kept.exitCode == 2, "\(kept)")
                #expect(kept.stderr.hasPrefix("score: history: cannot read \(path): not a regular file; this round is scored but not kept in the history\n"),
                        "\(kept.stderr)")
                #expect(try JSONRecord.parse(try #require(kept.stdoutLines.first)).int("exposed_ms") == 2000, "the score is still reported")
            }
        }
    }

    @Test func aHugeLineIsSkippedByNumberAndTheRoundsAroundItCount() throws {
        try withTemporaryDirectory { data in
            _ = try score(["--format", "json"], round, data: data)
            let history = data.path + "/history.ndjson"
            let handle = try #require(FileHandle(forWritingAtPath: history))
            handle.seekToEndOfFile()
            handle.write(Data(#"{"kind":"round","note":""#.utf8) + Data(repeating: 0x61, count: 17 << 20) + Data("\"}\n".utf8))
            handle.closeFile()
            _ = try score(["--format", "json"], round, data: data)
            let report = try score(["history", "--format", "json"], data: data)
            #expect(report.exitCode == 0, "\(report)")
            #expect(try JSONRecord.parse(try #require(report.stdoutLines.first)).int("rounds") == 2)
            #expect(report.stderr == "score history: \(history):2: longer than 16 MiB, skipped\n", "\(report.stderr)")
        }
    }

    @Test func aByteOrderMarkAndTimesPastAYear() throws {
        try withTemporaryDirectory { data in
            let history = data.path + "/history.ndjson"
            let good = #"{"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":8600}"#
            let huge = #"{"kind":"round","at":"2026-11-21T11:00:00Z","exposed_ms":9223372036854775807}"#
            let negative = #"{"kind":"round","at":"2026-11-21T12:00:00Z","exposed_ms":1000,"stall_ms":-5}"#
            let expecting = #"{"kind":"round","at":"2026-11-21T13:00:00Z","exposed_ms":1000,"expect_pct":9223372036854775807,"happened":true}"#
            try ("\u{FEFF}" + [good, huge, huge, negative, expecting, expecting, good].joined(separator: "\n") + "\n")
                .write(toFile: history, atomically: true, encoding: .utf8)
            for format in ["json", "text"] {
                let report = try score(["history", "--format", format], data: data)
                #expect(report.exitCode == 0, "no crash: \(report)")
                #expect(report.stderr.components(separatedBy: "\n").filter { !$0.isEmpty } == [
                    "score history: \(history):2: exposed_ms 9223372036854775807 is outside 0 to a year, skipped",
                    "score history: \(history):3: exposed_ms 9223372036854775807 is outside 0 to a year, skipped",
                    "score history: \(history):4: stall_ms -5 is outside 0 to a year, skipped",
                ], "\(report.stderr)")
            }
            let json = try score(["history", "--format", "json"], data: data)
            // The rounds with an expectancy past its scale count, without it (its sum overflowed).
            #expect(try JSONRecord.parse(try #require(json.stdoutLines.first)).int("rounds") == 4, "the first line too, after its mark")
        }
    }

    @Test func aRoundWithNoTimeCountsUndatedAndIsSaid() throws {
        try withTemporaryDirectory { data in
            let history = data.path + "/history.ndjson"
            let lines = [#"{"kind":"round","at":"2026-02-30T10:00:00Z","exposed_ms":1000}"#,
                         #"{"kind":"round","at":"yesterday","exposed_ms":2000}"#,
                         #"{"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":3000}"#]
            try (lines.joined(separator: "\n") + "\n").write(toFile: history, atomically: true, encoding: .utf8)
            let report = try score(["history", "--format", "json"], data: data)
            #expect(report.exitCode == 0, "\(report)")
            #expect(report.stderr == """
                score history: \(history):1: at 2026-02-30T10:00:00Z is no time like 2026-11-21T10:00:00Z; the round counts, undated
                score history: \(history):2: at yesterday is no time like 2026-11-21T10:00:00Z; the round counts, undated

                """, "\(report.stderr)")
            let record = try JSONRecord.parse(try #require(report.stdoutLines.first))
            #expect(record.int("rounds") == 3)
            #expect(record.int("total_exposed_ms") == 6000)
            let csv = try score(["history", "--export", "csv"], data: data)
            #expect(csv.stdoutLines.dropFirst().map { String($0.prefix(20)) } == [",,,,,,1.0,0.0,0,0,10", ",,,,,,2.0,0.0,0,0,20", "2026-11-21,10:00:00,"])
        }
    }

    @Test func aStreamWithTimesPastAYearIsScoredWithoutThem() throws {
        try withTemporaryDirectory { data in
            let absurd = #"{"kind":"shown","id":"x","section":"s","start_ms":0,"end_ms":1,"exposed_ms":9223372036854775807,"frames":1,"completed":true}"#
            let result = try score(["--format", "json"], [Event.start(), absurd, absurd] + Array(round.dropFirst()), data: data)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.contains("stdin:2: a shown record needs a whole exposed_ms from 0 to a year; skipped"), "\(result.stderr)")
            #expect(try JSONRecord.parse(try #require(result.stdoutLines.first)).int("exposed_ms") == 2000)
            let report = try score(["history", "--format", "json"], data: data)
            #expect(report.exitCode == 0, "\(report)")

            // Two events of a year each: the round is held to a year, so the
            // history takes back what score wrote.
            let year = #"{"kind":"shown","id":"y","section":"s","start_ms":0,"end_ms":1,"exposed_ms":31536000000,"frames":1,"completed":true}"#
            let long = try score(["--format", "json"], [Event.start(), year, year, Event.hold(0, 10), Event.end(10)], data: data)
            #expect(try JSONRecord.parse(try #require(long.stdoutLines.first)).int("exposed_ms") == 31_536_000_000)
            let after = try score(["history", "--format", "json"], data: data)
            #expect(after.stderr.isEmpty, "\(after.stderr)")
            #expect(try JSONRecord.parse(try #require(after.stdoutLines.first)).int("rounds") == 2)
        }
    }

    @Test func aTornLastLineIsKeptBesideTheHistory() throws {
        try withTemporaryDirectory { data in
            _ = try score(["--format", "json"], round, data: data)
            let history = data.path + "/history.ndjson"
            let edit = #"{"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":8600,}"#
            let handle = try #require(FileHandle(forWritingAtPath: history))
            handle.seekToEndOfFile()
            handle.write(Data(edit.utf8))
            handle.closeFile()
            let again = try score(["--format", "json"], round, data: data)
            #expect(again.exitCode == 0, "\(again)")
            #expect(again.stderr.contains("removed a torn last line (\(edit.utf8.count) bytes) before appending; kept in \(history).torn"), "\(again.stderr)")
            #expect(try String(contentsOfFile: history + ".torn", encoding: .utf8) == edit + "\n")
        }
    }
}
