// score and score history over a history file that is hostile in a way a case
// folder cannot hold: a line of many megabytes. A byte-order mark, times past
// any round (their sums crashed every later report), undated rounds, a torn
// last line that was a hand edit, /dev/zero and a FIFO (it hung both) are
// cases in Tests/Fixtures/score/.

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
}
