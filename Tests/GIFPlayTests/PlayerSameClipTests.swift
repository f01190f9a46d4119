// Issue 22 through gif-play and score. What gif-play writes is golden cases
// (Tests/Fixtures/gif-play/same-clip-*, seen-*, off-topic-*): the same clip
// under other ids is shown once and skipped, a round plays new GIFs first
// (--seen-rounds), x marks a GIF off-topic and a re-upload of it is passed
// over. Here score reads those cases' events: it counts the skipped and the
// new GIFs, keeps what a round showed (seen.ndjson) and the mark beside the
// ratings, which the later cases hold in their data folders.

import Foundation
import Testing
import TestSupport

/// `Tests/Fixtures/gif-play`.
let goldenCases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/gif-play")

@Suite struct PlayerSameClipTests {
    /// score on the events the golden case `name` pins, with SPOSURE_DATA `data`: its record.
    func score(_ name: String, data: URL) throws -> [String: Any] {
        let events = try Data(contentsOf: goldenCases.appendingPathComponent(name + "/stdout"))
        let scored = try StageProcess.run(
            "score", arguments: ["--format", "json", "--at", "2026-11-21T10:00:00Z"], environment: ["SPOSURE_DATA": data.path],
            unsetEnvironment: ["XDG_DATA_HOME"], stdin: [UInt8](events))
        #expect(scored.exitCode == 0 && scored.stderr == "", "\(scored)")
        return try #require(scored.stdoutLines.first.flatMap(jsonObject))
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func scoreCountsTheSkippedClipsAndKeepsWhatARoundShowedForTheNext() throws {
        try withTemporaryDirectory { folder in
            let record = try score("same-clip-under-other-ids-is-shown-once-and-skipped", data: folder)
            #expect(record["gifs_shown"] as? Int == 2 && record["gifs_skipped"] as? Int == 3, "\(record)")
            #expect(record["exposed_ms"] as? Int == 800 && record["new_gifs"] as? Int == 2, "\(record)")
            let seen = try text(folder.path + "/seen.ndjson")
            let first = #"{"kind":"seen","at":"2026-11-21T10:00:00Z","query":"spiders","gifs":[{"provider":"giphy","id":"first","hash":""#
            #expect(seen.split(separator: "\n").count == 1 && seen.hasPrefix(first), "\(seen)")
            // What the next round's case holds; the same clip under a new id counts as seen (its hash), the third is new.
            let next = "seen-rounds-plays-the-gifs-not-seen-lately-first"
            #expect(try text(goldenCases.path + "/\(next)/files/data/seen.ndjson") == seen)
            #expect(try score(next, data: folder)["new_gifs"] as? Int == 1)
            #expect(try text(folder.path + "/seen.ndjson").split(separator: "\n").count == 2)
        }
    }

    @Test func aDamagedSeenLineIsPassedOverAndTheRestCounts() throws {
        try withTemporaryDirectory { folder in
            let seen = """
                {"kind":"seen","at":"2026-11-20T10:00:00Z","query":"spiders","gifs":[{"provider":"giphy","id":"other","hash":"not a hash"}]}
                {"kind":"seen","at":"2026-11-20T11:00:00Z","query":"spi
                this is no JSON
                {"kind":"seen","at":"2026-11-20T12:00:00Z","query":"spiders","gifs":[{"id":"first"},{"id":7}]}

                """
            try seen.write(toFile: folder.path + "/seen.ndjson", atomically: true, encoding: .utf8)
            // Shown: first and other, both seen (by id, before and after the damage).
            let record = try score("same-clip-under-other-ids-is-shown-once-and-skipped", data: folder)
            #expect(record["new_gifs"] as? Int == 0, "\(record)")
            let lines = try text(folder.path + "/seen.ndjson").split(separator: "\n")
            #expect(lines.count == 5 && lines[4].hasPrefix(#"{"kind":"seen","at":"2026-11-21T10:00:00Z""#))
        }
    }

    @Test func scoreKeepsTheOffTopicMarkWithTheClipsHashesBesideTheRatings() throws {
        try withTemporaryDirectory { folder in
            let marked = "off-topic-x-in-a-hold-script-marks-the-gif"
            #expect(try score(marked, data: folder)["gifs_off_topic"] as? Int == 1)
            // The mark carries the clip's hashes, as its shown does (issue 28 #7).
            let shown = try #require(try text(goldenCases.path + "/\(marked)/stdout").split(separator: "\n")
                .compactMap { jsonObject(String($0)) }.first { $0["kind"] as? String == "shown" })
            let hash = try #require(shown["hash"] as? String), cosine = try #require(shown["hash_dct"] as? String)
            let ratings = try text(folder.path + "/ratings.ndjson")
            #expect(ratings == #"{"kind":"off_topic","provider":"giphy","id":"hero","title":"Spider-Man swings","query":"cartoon spider","#
                + #""at":"2026-11-21T10:00:00Z","hash":"\#(hash)","hash_dct":"\#(cosine)"}"# + "\n")
            // What the later rounds' cases hold; there the re-uploads are skipped.
            let later = "off-topic-a-reupload-of-a-marked-clip-is-passed-over"
            #expect(try text(goldenCases.path + "/\(later)/files/data/ratings.ndjson") == ratings)
            let record = try score(later, data: folder)
            #expect(record["gifs_shown"] as? Int == 1 && record["gifs_skipped"] as? Int == 2, "\(record)")
        }
    }
}
