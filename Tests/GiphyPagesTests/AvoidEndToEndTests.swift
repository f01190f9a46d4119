// `giphy-pages list` leaves out, before anything is fetched, the results
// whose title, slug, tags or creator hold an avoid word (a page's "avoid",
// `--avoid`), the GIFs marked off-topic, and holds back the GIFs seen in
// recent rounds (issue 22): one `skipped` record a page, one line on stderr.

import Foundation
import SposureKit
import Testing
import TestSupport

@Suite(.serialized)
struct AvoidEndToEndTests {
    /// Runs `giphy-pages ARGUMENTS` with `lines` on stdin against `klipy`
    /// (if any), with `files` (name → lines) in a fresh data folder; `then`
    /// sees the result and the folder before it goes.
    func run(_ arguments: [String], klipy: FakeKlipy? = nil, lines: [String] = [],
             files: [String: [String]] = [:], then: ((StageProcess.Result, URL) throws -> Void)? = nil) throws -> StageProcess.Result {
        try withTemporaryDirectory { folder in
            let data = folder.path + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            for (name, content) in files {
                try content.map { $0 + "\n" }.joined().write(toFile: data + "/" + name, atomically: true, encoding: .utf8)
            }
            var environment = [
                "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "NO_COLOR": "1",
                "SPOSURE_CACHE": folder.path + "/cache", "SPOSURE_DATA": data, "SPOSURE_CONFIG": folder.path + "/config",
            ]
            var unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "GIPHY_API_KEY"]
            if let klipy {
                environment["KLIPY_API_URL"] = klipy.baseURL
                environment["KLIPY_API_KEY"] = klipy.key
            } else {
                unset.append("KLIPY_API_KEY")
            }
            let result = try StageProcess.run("giphy-pages", arguments: arguments, environment: environment,
                                              unsetEnvironment: unset, stdin: Array(lines.map { $0 + "\n" }.joined().utf8))
            try then?(result, folder)
            return result
        }
    }

    // The avoid words and the creator on one page: Tests/Fixtures/giphy-pages/list-results-mixing-the-hero-*
    // and list-the-creator-is-carried-*.

    @Test func avoidedGIFsAreNeverFetchedByTheStageAfter() throws {
        let fake = try FakeKlipy()
        defer { fake.stop() }
        var gif = GIFBuilder(width: 2, height: 2, colors: [[0, 0, 0], [255, 255, 255]])
        gif.image(width: 2, height: 2, pixels: [0, 1, 1, 0])
        gif.trailer()
        fake.serveMedia(gif.bytes)
        let items = [
            FakeKlipyItem(id: 1_000_000_000_000_001, title: "Tarantula walking"),
            FakeKlipyItem(id: 1_000_000_000_000_002, title: "Friendly neighbour"),
            FakeKlipyItem(id: 1_000_000_000_000_003, title: "Web swing"),
            FakeKlipyItem(id: 1_000_000_000_000_004, title: "House spider"),
        ]
        var tagged = items
        tagged[1].tags = ["Spider Man", "hero"]
        tagged[2].slug = "spiderman-web-swing"
        fake.set("spiders", items: tagged)
        let klipyPage = #"{"kind":"page","provider":"klipy","endpoint":"search","query":"spiders","section":"spiders","page":1,"per_page":4,"offset":0,"limit":4,"rating":"g","lang":"en"}"#
        _ = try run(["list", "--avoid", "spider-man"], klipy: fake, lines: [klipyPage]) { listed, folder in
            #expect(listed.exitCode == 0, "\(listed.stderr)")
            let fetched = try StageProcess.run("fetch-images", arguments: ["--quiet"], environment: [
                "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "SPOSURE_CACHE": folder.path + "/images",
            ], unsetEnvironment: ["http_proxy", "HTTP_PROXY"], stdin: Array(listed.stdoutLines.map { $0 + "\n" }.joined().utf8))
            #expect(fetched.exitCode == 0, "\(fetched.stderr)")
            let images = try fetched.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(images.filter { $0.kind == "image" }.map { $0.string("id") } == ["1000000000000001", "1000000000000004"])
            // The summary passes fetch-images untouched.
            #expect(images.last?.kind == "skipped" && images.last?.int("avoided") == 2)
        }
        let path = { (item: FakeKlipyItem) in item.mediaPath("sm", "gif") }
        #expect(fake.server.requestCount(for: path(items[0])) == 1)
        #expect(fake.server.requestCount(for: path(items[1])) == 0)
        #expect(fake.server.requestCount(for: path(items[2])) == 0)
        #expect(fake.server.requestCount(for: path(items[3])) == 1)
    }

    /// Issue 28 #5: `plan` took 501 words (and a ladder's with more), and
    /// `list` then refused every page as bad_page; 30 000 took 44 s to parse.
    /// One limit, refused where the words enter, in one line.
    @Test func moreAvoidWordsThanAPageCarriesAreRefusedByPlan() throws {
        // 501 words, 495 with a ladder's own, exactly 500: Tests/Fixtures/giphy-pages/plan-*-avoid-words-*;
        // list takes a page of 500: list-a-page-carrying-500-avoid-words-is-listed.
        let thousands = try run(["plan", "--provider", "giphy", "--no-ping", "--total", "4", "spiders"]
                                + (0..<30_000).flatMap { ["--avoid", "w\($0)"] })
        #expect(thousands.exitCode == 64 && thousands.stderr == "giphy-pages plan: --avoid: 30000 words; a page carries at most 500\n")
    }
}
