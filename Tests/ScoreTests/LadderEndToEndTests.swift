// End-to-end tests of a ladder rung of the person's own GIFs over the built
// `score` and `giphy-pages`, made in the test: an absolute folder and a name
// that is not UTF-8, which a case folder cannot hold. The rest of the ladder's
// runs (the rung a history picks, re-tests, the CSV, the table, bad files)
// are cases in Tests/Fixtures/score/ and Tests/Fixtures/giphy-pages/.

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
