// `score history` adds the history up a round at a time (issue 16): on a
// long history its text, JSON, chart and CSV are what the whole array of
// rounds gives, with and without --last.

import Foundation
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

@Suite struct HistoryStreamingTests {
    static let now = "2026-11-21T20:00:00Z"

    @Test func aLongHistoryGivesTheWholeArrayReport() throws {
        try withTemporaryDirectory { data in
            let entries = try writeHistory(3_000, in: data)
            let nowDate = try #require(Timestamp.date(Self.now))
            for last in [nil, 700] {
                let counted = last.map { Array(entries.suffix($0)) } ?? entries
                let plot = data.path + "/chart-\(last ?? 0).svg"
                let json = try runHistory(["--format", "json", "--now", Self.now, "--plot", plot] + (last.map { ["--last", "\($0)"] } ?? []), data: data)
                #expect(json.exitCode == 0)
                #expect(json.stderr == "")
                let record = LifetimeStats(entries: counted).record()
                PracticeStats(entries: counted, now: nowDate, offset: .zone(TimeZone(identifier: "UTC")!)).write(to: record)
                #expect(json.stdoutLines == [record.text])
                #expect(try String(contentsOfFile: plot, encoding: .utf8) == HistoryChart.svg(entries: counted))

                let text = try runHistory(["--format", "text", "--now", Self.now] + (last.map { ["--last", "\($0)"] } ?? []), data: data)
                let practice = PracticeStats(entries: counted, now: nowDate, offset: .zone(TimeZone(identifier: "UTC")!))
                #expect(text.stdoutLines == LifetimeScreen.lines(LifetimeStats(entries: counted), style: .plain) + practice.lines(style: .plain))

                let csv = try runHistory(["--export", "csv"] + (last.map { ["--last", "\($0)"] } ?? []), data: data)
                #expect(csv.exitCode == 0)
                #expect(csv.stdout == Array(HistoryCSV.text(counted).utf8))
            }
        }
    }

    @Test func aClosedStdoutEndsTheCSVQuietly() throws {
        try withTemporaryDirectory { data in
            _ = try writeHistory(3_000, in: data)
            let result = try StageProcess.run(
                "score", arguments: ["history", "--export", "csv"], environment: ["SPOSURE_DATA": data.path],
                unsetEnvironment: ["XDG_DATA_HOME"], closeStdoutAfterLines: 5)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines.first == HistoryCSV.header)
        }
    }
}

/// Writes `count` rounds, some with distress, some on a ladder with the
/// player's ratings, to `data`'s history file, and returns them.
private func writeHistory(_ count: Int, in data: URL) throws -> [HistoryEntry] {
    var seed: UInt64 = 16
    func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
    // Backwards from the evening of `now`, so today, the streak and the week have rounds.
    var at = try #require(Timestamp.date(HistoryStreamingTests.now)).addingTimeInterval(-Double(count) * 3 * 3600)
    let entries: [HistoryEntry] = (0..<count).map { index in
        at += TimeInterval(60 + next(6 * 3600 - 120))
        var entry = HistoryEntry(at: Timestamp.format(at), exposedMs: 1_000 + next(290_000), gifsCompleted: next(30))
        switch index % 4 {
        case 0, 1: entry.distress = Distress(before: next(11), after: next(11))
        case 2:
            entry.ladder = LadderTag(ladder: next(2) == 0 ? "spiders" : "snakes", rung: 1 + next(8), rungSuds: 10 * next(10))
            entry.reason = "completed"
            entry.ratings = RoundRatings(sudsBefore: next(3) == 0 ? nil : next(11), expectPct: next(2) == 0 ? nil : 10 * next(11),
                                         peak: next(11), sudsAfter: next(3) == 0 ? nil : next(11),
                                         happened: next(2) == 0 ? nil : next(5) == 0)
        default: break
        }
        return entry
    }
    var bytes: [UInt8] = []
    for entry in entries {
        bytes += entry.record().serialized()
        bytes.append(0x0A)
    }
    let path = data.path + "/history.ndjson"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    // As read back: a round with both ratings reads them as its distress.
    let contents = try HistoryFile(path: path, owner: .program).read()
    #expect(contents.entries.count == entries.count)
    return contents.entries
}

/// Runs `score history` with `arguments` over `data`'s history, in UTC and without colour.
private func runHistory(_ arguments: [String], data: URL) throws -> StageProcess.Result {
    let result = try StageProcess.run(
        "score", arguments: ["history"] + arguments, environment: ["SPOSURE_DATA": data.path, "TZ": "UTC", "NO_COLOR": "1"],
        unsetEnvironment: ["XDG_DATA_HOME"])
    #expect(!result.timedOut)
    return result
}
