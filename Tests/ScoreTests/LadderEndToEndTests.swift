// End-to-end test of a ladder rung of the person's own GIFs over the built
// `score` and `giphy-pages`, made in the test: a name that is not UTF-8, which
// a case folder cannot hold. The rest of the ladder's runs (a folder rung at an
// absolute path, empty or gone, the rung a history picks, re-tests, the CSV,
// the table, bad files) are cases in Tests/Fixtures/score/ and
// Tests/Fixtures/giphy-pages/.

import Foundation
import ScoreKit
import SposureKit
import Testing
import TestSupport

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

    /// Issue "Hostile input, third pass", item 9: a .gif whose name is not
    /// UTF-8 was written under another name, then failed as not_found (a
    /// name git cannot hold, so not a case folder; the rest of item 9 is in
    /// Tests/Fixtures/giphy-pages/plan-a-folder-rung-*).
    @Test func aFolderRungLeavesOutANameThatIsNotUTF8() throws {
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
            let bad = Array((ladders + "/mine/b").utf8) + [0xFF] + Array(".gif".utf8) + [0]
            let fd = bad.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
            #expect(fd >= 0)
            close(fd)
            let skipping = try plan(["--ladder", "dogs", "--rung", "1"], folder)
            #expect(skipping.exitCode == 0, "\(skipping)")
            #expect(skipping.stdoutLines.count == 1, "only a.gif: \(skipping.stdoutLines)")
            #expect(skipping.stderr.contains("\(ladders)/mine/b\\xFF.gif: the name is not UTF-8, left out (rename it)"), "\(skipping.stderr)")
        }
    }
}
