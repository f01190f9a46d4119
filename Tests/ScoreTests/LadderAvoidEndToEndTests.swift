// `score ladder NAME` shows the GIFs marked off-topic on the ladder and the
// words their titles repeat; `score ladder NAME --avoid WORD` adds a word to
// the person's copy, making it from the built-in when there is none (issue 22).

import Foundation
import SposureKit
import Testing
import TestSupport

@Suite struct LadderAvoidEndToEndTests {
    func environment(_ folder: URL) -> [String: String] {
        ["SPOSURE_DATA": folder.path + "/data", "SPOSURE_CONFIG": folder.path + "/config"]
    }

    func score(_ arguments: [String], _ folder: URL) throws -> StageProcess.Result {
        try StageProcess.run("score", arguments: ["ladder"] + arguments, environment: environment(folder))
    }

    @Test func avoidWritesTheCopyAndSaysWhatItDid() throws {
        try withTemporaryDirectory { folder in
            let copy = folder.path + "/config/ladders/spiders.json"
            let first = try score(["spiders", "--avoid", "Charlotte's Web", "--avoid", "spider man"], folder)
            #expect(first.exitCode == 0, "\(first.stderr)")
            #expect(first.stdoutLines == [
                "added \"Charlotte's Web\" to the avoid list of \(copy) (your copy, made from the built-in)",
                "\"spider man\" is avoided already in \(copy); nothing changed",
            ])
            let text = try String(contentsOfFile: copy, encoding: .utf8)
            #expect(text.contains("\"sony pictures\", \"Charlotte's Web\"\n  ],"), "\(text)")
            let table = try score(["spiders", "--format", "json"], folder)
            #expect(try JSONRecord.parse(try #require(table.stdoutLines.first)).string("source") == copy)
            let bad = try score(["spiders", "--avoid", "..."], folder)
            #expect(bad.exitCode == 64 && bad.stderr.contains("has no letter or digit"), "\(bad.stderr)")
            let unknown = try score(["wasps", "--avoid", "wasp"], folder)
            #expect(unknown.exitCode == 64 && unknown.stderr.contains("no built-in ladder of that name"), "\(unknown.stderr)")
        }
    }

    @Test func theTableShowsTheMarksAndTheWordsTheyRepeat() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(atPath: folder.path + "/data", withIntermediateDirectories: true)
            func mark(_ id: String, _ title: String, ladder: String = "spiders") -> String {
                #"{"kind":"off_topic","provider":"giphy","id":"\#(id)","title":"\#(title)","query":"cartoon spider","ladder":"\#(ladder)","rung":1,"at":"2026-11-20T10:00:00Z"}"#
            }
            let marks = [mark("a1", "Cartoon Spider Superhero GIF by Sony"), mark("a2", "Superhero cartoon spider \\u001b[31mSony"),
                         mark("a3", "Marvel spider"), mark("b1", "Superhero dog", ladder: "dogs")]
            try marks.map { $0 + "\n" }.joined().write(toFile: folder.path + "/data/ratings.ndjson", atomically: true, encoding: .utf8)
            let json = try score(["spiders", "--format", "json"], folder)
            let record = try JSONRecord.parse(try #require(json.stdoutLines.first))
            #expect(record.objects("marks")?.map { $0.string("id") } == ["a1", "a2", "a3"])
            // "spider", "cartoon" are the ladder's own words, "gif" and "by" small ones, "marvel" avoided already.
            #expect(record.object("mark_words")?.text == #"{"sony":2,"superhero":2}"#)
            let text = try score(["spiders", "--format", "text"], folder)
            let lines = text.stdoutLines.drop { !$0.hasPrefix("Marked off-topic") }
            #expect(Array(lines) == [
                "Marked off-topic on this ladder (x in gif-play): 3 GIFs, never listed again",
                "  rung 1 \"cartoon spider\": Cartoon Spider Superhero GIF by Sony (giphy:a1)",
                "  rung 1 \"cartoon spider\": Superhero cartoon spider Sony (giphy:a2)",
                "  rung 1 \"cartoon spider\": Marvel spider (giphy:a3)",
                "Words their titles repeat: sony 2, superhero 2",
                "  score ladder spiders --avoid sony   leaves GIFs with it out of every rung (your copy)",
            ], "\(text.stdoutLines)")
        }
    }
}
