// `giphy-pages list` on a ladder's pages skips, before they are fetched, the
// GIFs already rated 3 or more over the rung on that ladder, and says how
// many on stderr (issue 15). The count was a note, shown only on a terminal;
// it is a warning now, shown unless --quiet, so a script sees it too.

import Foundation
import SposureKit
import Testing
import TestSupport

@Suite(.serialized)
struct RatedSkipEndToEndTests {
    /// Runs `giphy-pages list` over `pages` against `fake`, with `ratings` as the data folder's ratings.ndjson.
    func list(_ fake: FakeGiphy, pages: [String], ratings: [String], arguments: [String] = []) throws -> StageProcess.Result {
        try withTemporaryDirectory { folder in
            let data = folder.path + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try ratings.map { $0 + "\n" }.joined().write(toFile: data + "/ratings.ndjson", atomically: true, encoding: .utf8)
            let environment = [
                "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "NO_COLOR": "1",
                "GIPHY_API_URL": fake.baseURL, "GIPHY_API_KEY": fake.key,
                "SPOSURE_CACHE": folder.path + "/cache", "SPOSURE_DATA": data,
            ]
            let unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "KLIPY_API_KEY"]
            return try StageProcess.run("giphy-pages", arguments: ["list"] + arguments, environment: environment,
                                        unsetEnvironment: unset, stdin: Array(pages.map { $0 + "\n" }.joined().utf8))
        }
    }

    /// A page of spiders on rung 2 of the spiders ladder (SUDS 20): a GIF rated 5 or more is skipped.
    let ladderPage = #"{"kind":"page","endpoint":"search","query":"spiders","section":"spiders","offset":0,"limit":5,"rating":"g","lang":"en","total":5,"ladder":"spiders","rung":2,"rung_suds":20}"#

    func rated(_ id: String, _ rating: Int, ladder: String = "spiders") -> String {
        #"{"kind":"rated","provider":"giphy","id":"\#(id)","rating":\#(rating),"ladder":"\#(ladder)","rung":2,"at":"2026-11-20T10:00:00Z"}"#
    }

    func ids(_ result: StageProcess.Result) throws -> [String] {
        try result.stdoutLines.map { try JSONRecord.parse($0) }.filter { $0.kind == "gif" }.map { $0.string("id") ?? "?" }
    }

    @Test func skipsGIFsRatedThreeOverTheRungBeforeFetchingAndCountsThemOnStderr() throws {
        let fake = try FakeGiphy()
        defer { fake.stop() }
        fake.set(.search("spiders"), items: (0..<5).map { FakeGIF.make(id: "spid\($0)Xq") }, count: 5)
        let result = try list(fake, pages: [ladderPage], ratings: [
            rated("spid0Xq", 5),                 // 50 ≥ 20 + 30: skipped
            rated("spid1Xq", 4),                 // 40: kept
            rated("spid2Xq", 9, ladder: "dogs"), // rated on another ladder: kept
            rated("spid3Xq", 2), rated("spid3Xq", 8),  // the latest rating counts: skipped
        ])
        #expect(result.exitCode == 0)
        // Skipped before fetch-images could see them: no gif record at all.
        #expect(try ids(result) == ["spid1Xq", "spid2Xq", "spid4Xq"])
        let kept = try JSONRecord.parse(try #require(result.stdoutLines.first))
        #expect(kept.int("rank") == 1 && kept.string("ladder") == "spiders" && kept.int("rung") == 2)
        #expect(result.stderr == "giphy-pages list: skipped 2 GIFs before fetching: 2 rated well above the rung\n")
        // One record says so after the page (issue 22), never one a GIF.
        #expect(result.stdoutLines.last?.hasPrefix(#"{"kind":"skipped","stage":"giphy-pages list","query":"spiders","section":"spiders","offset":0,"ladder":"spiders","rung":2,"avoided":0,"off_topic":0,"rated":2,"#) == true)
        #expect(fake.calls.count == 1)
    }

    @Test func quietSilencesTheCountAndPagesOffALadderSkipNothing() throws {
        let fake = try FakeGiphy()
        defer { fake.stop() }
        fake.set(.search("spiders"), items: (0..<5).map { FakeGIF.make(id: "spid\($0)Xq") }, count: 5)
        let quiet = try list(fake, pages: [ladderPage], ratings: [rated("spid0Xq", 9)], arguments: ["--quiet"])
        #expect(try ids(quiet) == ["spid1Xq", "spid2Xq", "spid3Xq", "spid4Xq"])
        #expect(quiet.stderr == "")
        let plainPage = #"{"kind":"page","endpoint":"search","query":"spiders","section":"spiders","offset":0,"limit":5,"rating":"g","lang":"en","total":5}"#
        let plain = try list(fake, pages: [plainPage], ratings: [rated("spid0Xq", 9)])
        #expect(try ids(plain).count == 5)
        #expect(plain.stderr == "")
    }
}
