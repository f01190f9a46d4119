// Issue 22 through the built gif-play and score, on a virtual clock: the
// same clip under other ids is shown once and skipped, the x key (from a
// hold script) marks a GIF off-topic and score keeps the mark, score keeps
// what each round showed (seen.ndjson) and counts the new GIFs, and a later
// round plays new GIFs first (--seen-rounds).

import Foundation
import Testing
import TestSupport

@Suite struct PlayerSameClipTests {
    /// The clips: a scene's original and three copies, another scene, and a third.
    struct Clips {
        var original, identical, reencoded, resized, other, third: String
    }

    func writeClips(in folder: URL) throws -> Clips {
        let scenes = ClipSet.scenes(count: 3)
        let clip = ClipSet.Clip(scenes[0])
        return Clips(
            original: try PlayGIF.write(clip.original(), "original.gif", in: folder),
            identical: try PlayGIF.write(clip.copy(.identical), "identical.gif", in: folder),
            reencoded: try PlayGIF.write(clip.copy(.requantized), "reencoded.gif", in: folder),
            resized: try PlayGIF.write(clip.copy(.larger), "resized.gif", in: folder),
            other: try PlayGIF.write(ClipSet.original(scenes[1]), "other.gif", in: folder),
            third: try PlayGIF.write(ClipSet.original(scenes[2]), "third.gif", in: folder))
    }

    /// gif-play headless on `lines`, then score on its events, both with SPOSURE_DATA `data`.
    func round(_ lines: [String], arguments: [String] = [], hold: String = "always", data: URL) throws
        -> (events: [String], score: StageProcess.Result) {
        let environment = ["SPOSURE_DATA": data.path]
        let played = try StageProcess.run(
            "gif-play", arguments: ["--renderer", "none", "--clock", "virtual", "--hold", hold] + arguments,
            environment: environment, unsetEnvironment: ["XDG_DATA_HOME"], stdin: stream(lines))
        #expect(played.exitCode == 0, "\(played)")
        let scored = try StageProcess.run(
            "score", arguments: ["--format", "json", "--at", "2026-11-21T10:00:00Z"], environment: environment,
            unsetEnvironment: ["XDG_DATA_HOME"], stdin: played.stdout)
        #expect(scored.exitCode == 0, "\(scored)")
        return (played.stdoutLines, scored)
    }

    func hash(of line: String) -> String? { jsonObject(line)?["hash"] as? String }
    func cosineHash(of line: String) -> String? { jsonObject(line)?["hash_dct"] as? String }

    @Test func theSameClipUnderThreeOtherIdsIsShownOnceAndSkippedThrice() throws {
        try withTemporaryDirectory { folder in
            let clips = try writeClips(in: folder)
            let (events, score) = try round([
                imageRecord(id: "first", path: clips.original, query: "spiders"),
                imageRecord(id: "same-bytes", path: clips.identical, query: "spiders"),
                imageRecord(id: "new-palette", path: clips.reencoded, query: "spiders"),
                imageRecord(id: "bigger", path: clips.resized, query: "spiders"),
                imageRecord(id: "other", path: clips.other, query: "spiders"),
            ], data: folder)
            let kinds = events.compactMap { jsonObject($0).map { "\($0["kind"] ?? "")" + ":" + "\($0["id"] ?? "")" } }
            #expect(kinds == ["session:", "shown:first", "skipped:same-bytes", "skipped:new-palette", "skipped:bigger",
                              "shown:other", "hold:", "session:"], "\(events)")
            let first = try #require(events.first { $0.contains(#""id":"first""#) })
            let firstHash = try #require(hash(of: first))
            #expect(firstHash.count == 16 && firstHash.allSatisfy(\.isHexDigit), "\(first)")
            let firstCosine = try #require(cosineHash(of: first))
            #expect(firstCosine.count == 16 && firstCosine.allSatisfy(\.isHexDigit), "\(first)")
            // Skipped where the next began: no exposure, no gap.
            #expect(events[2] == #"{"kind":"skipped","reason":"same_clip","id":"same-bytes","like":"first","t_ms":400,"hash":"\#(firstHash)","hash_dct":"\#(firstCosine)"}"#)
            let other = try #require(events.first { $0.contains(#""id":"other""#) })
            #expect(other.contains(#""start_ms":400,"end_ms":800"#), "\(other)")
            let record = try #require(score.stdoutLines.first.flatMap(jsonObject))
            #expect(record["gifs_shown"] as? Int == 2)
            #expect(record["gifs_skipped"] as? Int == 3)
            #expect(record["exposed_ms"] as? Int == 800)
            #expect(record["new_gifs"] as? Int == 2)
        }
    }

    @Test func scoreKeepsWhatARoundShowedAndCountsTheNewGIFsOfTheNext() throws {
        try withTemporaryDirectory { folder in
            let clips = try writeClips(in: folder)
            _ = try round([imageRecord(id: "first", path: clips.original, query: "spiders"),
                           imageRecord(id: "other", path: clips.other, query: "spiders")], data: folder)
            let seen = try String(contentsOfFile: folder.path + "/seen.ndjson", encoding: .utf8)
            let line = try #require(seen.split(separator: "\n").first.map(String.init))
            #expect(seen.split(separator: "\n").count == 1)
            #expect(line.hasPrefix(#"{"kind":"seen","at":"2026-11-21T10:00:00Z","query":"spiders","gifs":[{"provider":"giphy","id":"first","hash":""#), "\(line)")

            // The same clip under a new id counts as seen (its hash); the third is new.
            // New first: gif-play plays the third before the two seen (--seen-rounds, off by default on a virtual clock).
            let (events, score) = try round([
                imageRecord(id: "reupload", path: clips.resized, query: "spiders"),
                imageRecord(id: "other", path: clips.other, query: "spiders"),
                imageRecord(id: "third", path: clips.third, query: "Spiders "),
            ], arguments: ["--seen-rounds", "5", "--buffer", "4"], data: folder)
            let shown = events.compactMap { jsonObject($0) }.filter { $0["kind"] as? String == "shown" }.compactMap { $0["id"] as? String }
            #expect(shown == ["third", "reupload", "other"], "\(events)")
            let record = try #require(score.stdoutLines.first.flatMap(jsonObject))
            #expect(record["new_gifs"] as? Int == 1, "\(score.stdoutLines)")
            #expect(try String(contentsOfFile: folder.path + "/seen.ndjson", encoding: .utf8).split(separator: "\n").count == 2)

            // Without --seen-rounds a virtual clock keeps input order (replays stay the same).
            let (plain, _) = try round([imageRecord(id: "other", path: clips.other, query: "spiders"),
                                        imageRecord(id: "fourth", path: clips.reencoded, query: "spiders")], data: folder)
            let order = plain.compactMap { jsonObject($0) }.filter { $0["kind"] as? String == "shown" }.compactMap { $0["id"] as? String }
            #expect(order == ["other", "fourth"], "\(plain)")
        }
    }

    @Test func aDamagedSeenLineIsPassedOverAndTheRestCounts() throws {
        try withTemporaryDirectory { folder in
            let clips = try writeClips(in: folder)
            let seen = """
                {"kind":"seen","at":"2026-11-20T10:00:00Z","query":"spiders","gifs":[{"provider":"giphy","id":"other","hash":"not a hash"}]}
                {"kind":"seen","at":"2026-11-20T11:00:00Z","query":"spi
                this is no JSON
                {"kind":"seen","at":"2026-11-20T12:00:00Z","query":"spiders","gifs":[{"id":"first"},{"id":7}]}

                """
            try seen.write(toFile: folder.path + "/seen.ndjson", atomically: true, encoding: .utf8)
            let (_, score) = try round([imageRecord(id: "first", path: clips.original, query: "spiders"),
                                        imageRecord(id: "other", path: clips.other, query: "spiders"),
                                        imageRecord(id: "third", path: clips.third, query: "spiders")], data: folder)
            #expect(score.stderr == "", "\(score.stderr)")
            let record = try #require(score.stdoutLines.first.flatMap(jsonObject))
            #expect(record["new_gifs"] as? Int == 1, "\(score.stdoutLines)")
            let lines = try String(contentsOfFile: folder.path + "/seen.ndjson", encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 5 && lines[4].hasPrefix(#"{"kind":"seen","at":"2026-11-21T10:00:00Z""#))
        }
    }

    @Test func xInAHoldScriptEndsTheGIFAndScoreKeepsTheMarkBesideTheRatings() throws {
        try withTemporaryDirectory { folder in
            let clips = try writeClips(in: folder)
            let script = folder.appendingPathComponent("holds.ndjson").path
            try #"{"t_ms":0,"down":true}\#n{"t_ms":150,"key":"x"}\#n"#.write(toFile: script, atomically: true, encoding: .utf8)
            let (events, score) = try round([
                imageRecord(id: "hero", path: clips.original, query: "cartoon spider", extra: #""title":"Spider-Man swings""#),
                imageRecord(id: "other", path: clips.other, query: "cartoon spider"),
            ], hold: "script:" + script, data: folder)
            // The mark carries the clip's hashes, as its shown does (issue 28 #7).
            let hashes = try #require(events.first { $0.contains(#""kind":"shown","id":"hero""#) }.flatMap { line in
                hash(of: line).flatMap { hash in cosineHash(of: line).map { (hash, $0) } }
            })
            #expect(events[1] == #"{"kind":"off_topic","id":"hero","title":"Spider-Man swings","t_ms":150,"query":"cartoon spider","hash":"\#(hashes.0)","hash_dct":"\#(hashes.1)"}"#, "\(events)")
            #expect(events[2].hasPrefix(#"{"kind":"shown","id":"hero","section":"spiders","query":"cartoon spider","start_ms":0,"end_ms":150,"exposed_ms":150,"frames":"#), "\(events[2])")
            #expect(events[2].contains(#""completed":false"#), "\(events[2])")
            #expect(events[3].hasPrefix(#"{"kind":"shown","id":"other","section":"spiders","query":"cartoon spider","start_ms":150,"end_ms":550"#), "\(events[3])")
            let record = try #require(score.stdoutLines.first.flatMap(jsonObject))
            #expect(record["gifs_off_topic"] as? Int == 1)
            let ratings = try String(contentsOfFile: folder.path + "/ratings.ndjson", encoding: .utf8)
            #expect(ratings == #"{"kind":"off_topic","provider":"giphy","id":"hero","title":"Spider-Man swings","query":"cartoon spider","at":"2026-11-21T10:00:00Z","hash":"\#(hashes.0)","hash_dct":"\#(hashes.1)"}"# + "\n")
        }
    }

    /// Issue 28 #7: an off-topic mark matched by id only, so a re-upload of
    /// a marked clip under another id came back. `list` knows ids only;
    /// gif-play, where the pixels are, passes it over by the hashes the mark keeps.
    @Test func aReuploadOfAClipMarkedOffTopicIsPassedOverInALaterRound() throws {
        try withTemporaryDirectory { folder in
            let clips = try writeClips(in: folder)
            let script = folder.appendingPathComponent("holds.ndjson").path
            try #"{"t_ms":0,"down":true}\#n{"t_ms":150,"key":"x"}\#n"#.write(toFile: script, atomically: true, encoding: .utf8)
            _ = try round([imageRecord(id: "hero", path: clips.original, query: "cartoon spider")], hold: "script:" + script, data: folder)
            // A later round: the same clip re-encoded under two new ids, and another clip.
            let (events, score) = try round([
                imageRecord(id: "hero-again", path: clips.reencoded, query: "cartoon spider"),
                imageRecord(id: "hero-bigger", path: clips.resized, query: "cartoon spider"),
                imageRecord(id: "other", path: clips.other, query: "cartoon spider"),
            ], arguments: ["--seen-rounds", "5"], data: folder)
            let kinds = events.compactMap { jsonObject($0).map { "\($0["kind"] ?? "")" + ":" + "\($0["id"] ?? "")" } }
            // (--seen-rounds also plays the GIF not seen lately first.)
            #expect(kinds == ["session:", "shown:other", "skipped:hero-again", "skipped:hero-bigger", "hold:", "session:"], "\(events)")
            #expect(events[2].hasPrefix(#"{"kind":"skipped","reason":"off_topic","id":"hero-again","like":"hero","t_ms":400,"hash":""#), "\(events[2])")
            let record = try #require(score.stdoutLines.first.flatMap(jsonObject))
            #expect(record["gifs_shown"] as? Int == 1)
            #expect(record["gifs_skipped"] as? Int == 2)
            // A replay on a virtual clock (no --seen-rounds) plays the stream as it was.
            let (replayed, _) = try round([imageRecord(id: "hero-again", path: clips.reencoded, query: "cartoon spider")], data: folder)
            #expect(replayed.contains { $0.hasPrefix(#"{"kind":"shown","id":"hero-again""#) }, "\(replayed)")
        }
    }

    /// A mark kept before issue 28 has no hash: it still leaves out its own id (in `list`), and nothing else.
    @Test func aMarkWithoutAHashPassesOverNothingInGifPlay() throws {
        try withTemporaryDirectory { folder in
            let clips = try writeClips(in: folder)
            try #"{"kind":"off_topic","provider":"giphy","id":"hero","title":"Spider-Man swings","at":"2026-11-20T10:00:00Z"}"#
                .appending("\n").write(toFile: folder.path + "/ratings.ndjson", atomically: true, encoding: .utf8)
            let (events, _) = try round([imageRecord(id: "hero-again", path: clips.reencoded, query: "cartoon spider")],
                                        arguments: ["--seen-rounds", "5"], data: folder)
            #expect(events.contains { $0.hasPrefix(#"{"kind":"shown","id":"hero-again""#) }, "\(events)")
        }
    }

}
