// End-to-end tests of the built `giphy-pages` binary (plan and list), run over
// real pipes against FakeGiphy, a Giphy-compatible API on 127.0.0.1 modelled
// on the real responses of ../shared/corpus/giphy (string numbers, `{}` and
// missing renditions, duplicates, a changing or missing total_count, both
// error shapes, 429 without Retry-After, synthetic answers, the offset caps,
// slow pages). The child gets GIPHY_API_KEY and GIPHY_API_URL (or --api-url)
// in its environment; every run checks that the key appears nowhere in its
// stdout or stderr. Children are killed after a generous safety timeout, and
// that fails the test; no test asserts how long something took.
//
// The contract under test: issue 3, docs/stream-format.md, design.md.

import Foundation
import SposureKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized)
struct GiphyPagesEndToEndTests {

    // MARK: - plan: pings and pages

    @Test func planPassesRatingAndLangAndEncodesTheQuery() throws {
        try withWorld { world in
            world.fake.set(.search("black widow"), count: 30)
            let result = try world.plan(["black widow", "--rating", "pg", "--lang", "es"])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == [pageLine("black widow", offset: 0, limit: 30, total: 30, rating: "pg", lang: "es")])
            let call = try #require(world.fake.calls.first)
            #expect(call.query == "black widow")
            #expect(call.rating == "pg")
            #expect(call.lang == "es")
        }
    }

    @Test func planShuffleWithASeedGivesTheSameOrderTwiceAndEachPageOnce() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 500)
            world.fake.set(.search("snakes"), count: 300)
            let plain = try world.plan(["spiders", "snakes"])
            let first = try world.plan(["spiders", "snakes", "--shuffle", "--seed", "42"])
            let second = try world.plan(["spiders", "snakes", "--shuffle", "--seed", "42"])
            let other = try world.plan(["spiders", "snakes", "--shuffle", "--seed", "43"])

            for result in [plain, first, second, other] { #expect(result.exitCode == 0) }
            #expect(plain.stdoutLines.count == 16)
            #expect(first.stdoutLines == second.stdoutLines, "the same seed gives the same order")
            #expect(first.stdoutLines.sorted() == plain.stdoutLines.sorted(), "the same pages")
            #expect(Set(first.stdoutLines).count == first.stdoutLines.count, "each page exactly once")
            #expect(first.stdoutLines != plain.stdoutLines, "shuffled")
            #expect(other.stdoutLines != first.stdoutLines, "another seed, another order")
            #expect(other.stdoutLines.sorted() == plain.stdoutLines.sorted())
            #expect(world.fake.calls.count == 8, "one ping per query per run")
        }
    }

    @Test func planPingFailureBecomesAnErrorRecordAndOtherQueriesGoOn() throws {
        try withWorld { world in
            world.fake.set(.search("snakes"), count: 20)
            world.fake.fail(.serverError(503), times: .max, list: .search("spiders"))
            let result = try world.plan(["spiders", "snakes", "--max-wait", "0"])

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 2)
            let error = try JSONRecord.parse(result.stdoutLines[0])
            #expect(error.keys == ["kind", "endpoint", "query", "section", "stage", "code", "error"])
            #expect(error.kind == "error")
            #expect(error.string("endpoint") == "search")
            #expect(error.string("query") == "spiders")
            #expect(error.string("section") == "spiders")
            #expect(error.string("stage") == "giphy-pages plan")
            #expect(error.string("code") == "http_503")
            #expect(result.stdoutLines[1] == pageLine("snakes", offset: 0, limit: 20, total: 20))
            #expect(world.fake.calls(to: .search("spiders")).count == 1)
            #expect(world.fake.calls(to: .search("snakes")).count == 1)
        }
    }

    @Test func planRetriesARateLimitedPing() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 20)
            world.fake.fail(.rateLimited, times: 1)
            let result = try world.plan(["spiders", "--max-wait", "2s"])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == [pageLine("spiders", offset: 0, limit: 20, total: 20)])
            #expect(world.fake.calls.map(\.status) == [429, 200])
        }
    }

    /// The ping runs on the request engine now (issue 20): Ctrl-C while it
    /// waits on a stalled API stops it at once, with the query's error record
    /// and exit 130, as the planner's own loop did.
    @Test func planCtrlCDuringAStalledPingEndsWithAnInterruptedRecord() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 20)
            world.fake.delay(30, list: .search("spiders"))
            let stage = try world.start(["plan", "spiders"])
            let began = Date()
            while world.fake.calls.isEmpty && Date().timeIntervalSince(began) < 20 { usleep(20_000) }
            usleep(200_000)
            stage.send(signal: SIGINT)
            let result = world.finish(stage)
            #expect(result.exitCode == 130)
            #expect(Date().timeIntervalSince(began) < 15, "stopped without waiting for the stalled answer")
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(records.count == 1)
            #expect(records.first?.kind == "error")
            #expect(records.first?.string("code") == "interrupted")
            #expect(records.first?.string("query") == "spiders")
        }
    }

    // MARK: - plan: typed queries and --follow

    @Test func planDebouncesQueriesTypedQuickly() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 40)
            world.fake.set(.search("snakes"), count: 30)
            let stage = try world.start(["plan", "--queries-from", "-", "--debounce", "1s"], keepStdinOpen: true)
            for query in ["s", "sp", "spi", "spiders"] {
                stage.feed(Array("\(query)\n".utf8))
                usleep(20_000)
            }
            // "spiders" stands once the debounce has passed: then a pause, then "snakes".
            let spiders = world.fake.wait(timeout: 60) { world.fake.searchedQueries.contains("spiders") }
            stage.waitForStdoutLines(1, timeout: 60)
            stage.feed(Array("snakes\n".utf8))
            let snakes = world.fake.wait(timeout: 60) { world.fake.searchedQueries.contains("snakes") }
            stage.waitForStdoutLines(2, timeout: 60)
            stage.closeStdin()
            let result = world.finish(stage)

            #expect(spiders)
            #expect(snakes)
            #expect(result.exitCode == 0)
            #expect(world.fake.searchedQueries == ["spiders", "snakes"], "only the queries that stood were searched")
            #expect(result.stdoutLines == [
                pageLine("spiders", offset: 0, limit: 40, total: 40),
                pageLine("snakes", offset: 0, limit: 30, total: 30),
            ])
        }
    }

    @Test func planFollowPicksUpANewTrendingGIF() throws {
        try withWorld { world in
            let first = (0..<10).map { FakeGIF.make(id: "trendA\($0)") }
            world.fake.set(.trending, items: first)
            let plan = try world.start(["plan", "--trending", "--follow", "--interval", "1s", "--limit", "5", "--max-results", "10"])
            let list = try world.start(["list"], keepStdinOpen: true)
            let pipe = Relay(from: plan, to: list)

            let listed = pipe.wait(timeout: 60) { list.stdoutLinesSoFar.count >= 10 }
            // A follow poll has been answered (page 0 asked a second time) before the new GIF comes.
            let polled = pipe.wait(timeout: 60) {
                world.fake.calls(to: .trending).filter { $0.offset == 0 && $0.limit == 5 }.count >= 2
            }
            let fresh = FakeGIF.make(id: "freshNEW1", title: "Brand new spider")
            world.fake.prepend(fresh, to: .trending)
            let picked = pipe.wait(timeout: 60) { list.stdoutLinesSoFar.contains { $0.contains(#""id":"freshNEW1""#) } }
            plan.send(signal: SIGINT)
            let planResult = world.finish(plan)
            pipe.pump()
            list.closeStdin()
            let listResult = world.finish(list)

            #expect(listed)
            #expect(polled)
            #expect(picked)
            #expect(planResult.exited, "killed by signal \(planResult.status)")
            #expect(planResult.exitCode == 130)
            #expect(listResult.exitCode == 0)
            try #require(planResult.stdoutLines.count >= 3)
            #expect(Array(planResult.stdoutLines.prefix(2)) == [
                pageLine(nil, offset: 0, limit: 5, total: 10),
                pageLine(nil, offset: 5, limit: 5, total: 10),
            ])
            #expect(planResult.stdoutLines.dropFirst(2).allSatisfy { $0 == pageLine(nil, offset: 0, limit: 5, total: 10) },
                    "follow asks for the first page again")
            let expected = first.enumerated().map { gifLine($1, rank: $0, query: nil) } + [gifLine(fresh, rank: 0, query: nil)]
            #expect(listResult.stdoutLines == expected, "the ten, then only the new one")
        }
    }

    @Test func planFollowEndsQuietlyWhenDownstreamCloses() throws {
        try withWorld { world in
            world.fake.set(.trending, count: 10)
            let result = try world.plan(["--trending", "--follow", "--interval", "1s", "--limit", "5", "--max-results", "10"],
                                        closeStdoutAfterLines: 1)

            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [pageLine(nil, offset: 0, limit: 5, total: 10)])
        }
    }

    @Test func planEndsQuietlyWhenDownstreamCloses() throws {
        try withWorld { world in
            let result = try world.plan(["--no-ping", "--total", "5000", "--limit", "1", "spiders"], closeStdoutAfterLines: 1)

            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [pageLine("spiders", offset: 0, limit: 1, total: 5000)])
        }
    }

    // MARK: - list: records

    @Test func listWritesTheExactGIFRecordsOfAPage() throws {
        try withWorld { world in
            var items = (0..<10).map { FakeGIF.make(id: "spid\($0)Xq", frames: 10 + $0) }
            items[5].title = "Creepy\tCrawly  Spider"
            items[7].title = "Ara\u{F1}a \u{1F577} \"quoted\" GIF"
            world.fake.set(.search("spiders"), items: items, count: 12)
            let page = pageLine("spiders", offset: 5, limit: 5, total: 12, extra: #","tag":"night""#)
            let result = try world.list([], lines: [page])

            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            var expected: [String] = []
            for index in 5..<10 {
                let title = index == 5 ? "Creepy Crawly Spider" : nil
                expected.append(gifLine(items[index], rank: index, query: "spiders", title: title, extra: #","tag":"night""#))
            }
            #expect(result.stdoutLines == expected)
            // The URL is kept with its query string, exactly.
            let first = try JSONRecord.parse(result.stdoutLines[0])
            #expect(first.string("url") == items[5].rendition("fixed_height")?.url)
            #expect(first.string("url")?.contains("?cid=") == true && first.string("url")?.hasSuffix("&rid=200.gif&ct=g") == true)
            let calls = world.fake.calls
            try #require(calls.count == 1)
            #expect(calls[0].query == "spiders")
            #expect(calls[0].offset == 5)
            #expect(calls[0].limit == 5)
            #expect(calls[0].rating == "g" && calls[0].lang == "en")
            #expect(calls[0].key == world.key)
        }
    }

    @Test func listReadsTheCorpusTrendingPageExactly() throws {
        guard let corpus = FakeGIF.corpus("trending_25items_ryanw-mobile.json"), let folder = FakeGIF.corpusDirectory else {
            if Corpus.required { Issue.record("the Giphy corpus is absent; CI needs ../shared/corpus") }
            print("GiphyPagesEndToEndTests.listReadsTheCorpusTrendingPageExactly: SKIPPED — the Giphy corpus is absent")
            return
        }
        try withWorld { world in
            world.fake.set(.trending, items: corpus, total: .fixed(4019))
            let result = try world.list([], lines: [pageLine(nil, offset: 0, limit: 25, total: 4019)])

            #expect(result.exitCode == 0)
            let data = try Data(contentsOf: folder.appendingPathComponent("trending_25items_ryanw-mobile.json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let items = try #require(object["data"] as? [[String: Any]])
            var expected: [String] = []
            for (rank, item) in items.enumerated() {
                let images = try #require(item["images"] as? [String: Any])
                let chosen = try #require(images["fixed_height"] as? [String: String])
                let original = try #require(images["original"] as? [String: String])
                let id = try #require(item["id"] as? String)
                let title = (item["title"] as? String ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
                // The creator the item names (issue 22): its user's display name, else a username.
                let user = item["user"] as? [String: Any]
                let creator = [user?["display_name"], user?["username"], item["username"]].compactMap { $0 as? String }
                    .first { !$0.isEmpty }.map { name in
                        #""creator":\#(FakeGiphy.jsonString(name.split(whereSeparator: \.isWhitespace).joined(separator: " "))),"#
                    } ?? ""
                expected.append(#"{"kind":"gif","id":"\#(id)","title":\#(FakeGiphy.jsonString(title)),\#(creator)"section":"trending","rank":\#(rank),"#
                    + #""rendition":"fixed_height","url":"\#(chosen["url"]!)","width":\#(chosen["width"]!),"#
                    + #""height":\#(chosen["height"]!),"frames":\#(original["frames"]!),"size":\#(chosen["size"]!),"#
                    + #""cache_key":"giphy:\#(id):fixed_height"}"#)
            }
            #expect(result.stdoutLines.count == 25)
            #expect(result.stdoutLines == expected)
        }
    }

    @Test func listFallsBackWhenTheRenditionIsEmptyOrMissing() throws {
        try withWorld { world in
            let chain = ["fixed_height", "fixed_height_downsampled", "fixed_width", "downsized", "downsized_medium",
                         "fixed_width_downsampled", "downsized_large", "original"]
            let normal = FakeGIF.make(id: "fbA")
            let empty = FakeGIF.make(id: "fbB").emptying("fixed_height")
            let missing = FakeGIF.make(id: "fbC").without("fixed_height", "fixed_height_downsampled")
            var none = FakeGIF.make(id: "fbD", title: "No GIF at all")
            for (index, name) in chain.enumerated() { none = index % 2 == 0 ? none.emptying(name) : none.without(name) }
            let urlless = FakeGIF.make(id: "fbE").setting("fixed_height", FakeRendition(width: 300, height: 200, size: 99))
            world.fake.set(.search("spiders"), items: [normal, empty, missing, none, urlless])
            let result = try world.list([], lines: [pageLine("spiders", offset: 0, limit: 5, total: 5)])

            #expect(result.exitCode == 1, "a GIF became an error record")
            try #require(result.stdoutLines.count == 5)
            #expect(result.stdoutLines[0] == gifLine(normal, rank: 0, query: "spiders"))
            #expect(result.stdoutLines[1] == gifLine(empty, rank: 1, query: "spiders", rendition: "fixed_height_downsampled"))
            #expect(result.stdoutLines[2] == gifLine(missing, rank: 2, query: "spiders", rendition: "fixed_width"))
            let error = try JSONRecord.parse(result.stdoutLines[3])
            #expect(error.kind == "error")
            #expect(error.string("code") == "no_rendition")
            #expect(error.string("stage") == "giphy-pages list")
            #expect(error.string("id") == "fbD")
            #expect(error.string("title") == "No GIF at all")
            #expect(error.string("query") == "spiders")
            #expect(error.string("section") == "spiders")
            #expect(error.int("rank") == 3)
            #expect(!(error.string("error") ?? "").isEmpty)
            #expect(result.stdoutLines[4] == gifLine(urlless, rank: 4, query: "spiders", rendition: "fixed_height_downsampled"))
            #expect(result.stderr.contains("no_rendition"))
        }
    }

    @Test func listDropsRepeatsInPageOrderEvenWhenALaterPageAnswersFirst() throws {
        try withWorld { world in
            // The same stream must give the same records whatever the network
            // does: the first occurrence in page order is kept.
            let (a, b, c, d, e) = (FakeGIF.make(id: "ordA"), FakeGIF.make(id: "ordB"), FakeGIF.make(id: "ordC"),
                                   FakeGIF.make(id: "ordD"), FakeGIF.make(id: "ordE"))
            world.fake.set(.search("spiders"), items: [a, b, c, d, b, e])
            world.fake.delay(1.5, list: .search("spiders"), offset: 0)
            let result = try world.list(["--concurrency", "2"], lines: [
                pageLine("spiders", offset: 0, limit: 3, total: 6),
                pageLine("spiders", offset: 3, limit: 3, total: 6),
            ])

            #expect(result.exitCode == 0)
            let calls = world.fake.calls
            try #require(calls.count == 2)
            let slow = try #require(calls.first { $0.offset == 0 })
            let fast = try #require(calls.first { $0.offset == 3 })
            #expect((fast.answered ?? .infinity) < (slow.answered ?? 0), "the later page answered first")
            #expect(result.stdoutLines == [
                gifLine(a, rank: 0, query: "spiders"), gifLine(b, rank: 1, query: "spiders"), gifLine(c, rank: 2, query: "spiders"),
                gifLine(d, rank: 3, query: "spiders"), gifLine(e, rank: 5, query: "spiders"),
            ])
        }
    }

    /// Defect 9 of "Hostile input, third pass", for Giphy: a key echoed in
    /// a 200 answer (a title, a media URL's parameters) reached the `gif`
    /// record and the cache files of the ping and the page. Masked in each.
    @Test func listMasksAKeyEchoedInAGoodAnswer() throws {
        try withWorld { world in
            let key = world.key
            let url = "https://media2.giphy.com/media/echo1/200.gif?api_key=\(key)&k=\(key)"
            let gif = FakeGIF.make(id: "echo1", title: "said \(key)")
                .setting("fixed_height", FakeRendition(url: url, width: 200, height: 200, size: 1234))
            world.fake.set(.search("spiders"), items: [gif])
            func cacheHoldsTheKey(_ folder: String) throws -> Bool {
                let files = (FileManager.default.enumerator(atPath: folder + "/api")?.allObjects.compactMap { $0 as? String } ?? [])
                    .filter { $0.hasSuffix(".json") }
                try #require(!files.isEmpty, "an answer was kept")
                return try files.contains { try String(contentsOfFile: folder + "/api/" + $0, encoding: .utf8).contains(key) }
            }
            let plan = try world.plan(["spiders"])
            #expect(plan.exitCode == 0)
            #expect(try !cacheHoldsTheKey(world.lastCache), "the ping's answer is kept masked")
            let result = try world.list([], lines: plan.stdoutLines)

            #expect(result.exitCode == 0, "\(result)")
            let record = try JSONRecord.parse(try #require(result.stdoutLines.first))
            #expect(record.string("title") == "said REDACTED")
            #expect(record.string("url") == "https://media2.giphy.com/media/echo1/200.gif?api_key=REDACTED&k=REDACTED")
            #expect(try !cacheHoldsTheKey(world.lastCache), "the page's answer is kept masked")
            // (finish() checks that the key is in no stdout and no stderr.)
        }
    }

    @Test func listKeepsPageOrderWhenAPageIsSlow() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 10)
            world.fake.delay(1.5, list: .search("spiders"), offset: 0)
            let result = try world.list([], lines: [
                pageLine("spiders", offset: 0, limit: 5, total: 10),
                pageLine("spiders", offset: 5, limit: 5, total: 10),
            ])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == (0..<10).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            let calls = world.fake.calls
            try #require(calls.count == 2)
            let slow = try #require(calls.first { $0.offset == 0 })
            let fast = try #require(calls.first { $0.offset == 5 })
            #expect(fast.time < (slow.answered ?? 0), "the second page was asked while the first was slow")
        }
    }

    // MARK: - list: failures and retries

    @Test func listRetriesA429WithoutRetryAfterAndSucceeds() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.rateLimited, times: 2, list: .search("spiders"))
            let result = try world.list(["--max-wait", "3s"], lines: [pageLine("spiders", offset: 0, limit: 5, total: 5)])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == (0..<5).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            #expect(world.fake.calls.map(\.status) == [429, 429, 200])
        }
    }

    @Test func listEndless429BecomesARateLimitedRecordThatRetryErrorsReplays() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 10)
            world.fake.fail(.rateLimited, times: .max, list: .search("spiders"), offset: 5)
            let pages = [
                pageLine("spiders", offset: 0, limit: 5, total: 10),
                pageLine("spiders", offset: 5, limit: 5, total: 10, extra: #","tag":"replay""#),
            ]
            let first = try world.list(["--max-wait", "1s", "--concurrency", "1"], lines: pages)

            #expect(first.exitCode == 1)
            try #require(first.stdoutLines.count == 6)
            let gifs = (0..<10).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") }
            #expect(Array(first.stdoutLines.prefix(5)) == Array(gifs.prefix(5)))
            try expectPageError(first.stdoutLines[5], code: "rate_limited", page: pages[1], attempts: 2)
            #expect(world.fake.calls(to: .search("spiders")).filter { $0.offset == 5 }.count == 2)
            #expect(first.stderr.contains("rate_limited"))

            // Without --retry-errors the saved stream passes through untouched.
            let callsBefore = world.fake.calls.count
            let passed = try world.list([], lines: first.stdoutLines)
            #expect(passed.exitCode == 0)
            #expect(passed.stdoutLines == first.stdoutLines)
            #expect(world.fake.calls.count == callsBefore)

            // Later, the API answers again: only the failed page is asked.
            world.fake.clearFaults()
            let replay = try world.list(["--retry-errors"], lines: first.stdoutLines)
            #expect(replay.exitCode == 0)
            let replayed = (5..<10).map {
                gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders", extra: #","tag":"replay""#)
            }
            #expect(replay.stdoutLines == Array(first.stdoutLines.prefix(5)) + replayed)
            #expect(world.fake.calls.count == callsBefore + 1)
            #expect(world.fake.calls.last?.offset == 5)
        }
    }

    @Test func listTimesOutASlowPageAndRetriesIt() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.slow(10), times: 1, list: .search("spiders"))
            let result = try world.list(["--timeout", "2s", "--max-wait", "3s"], lines: [pageLine("spiders", offset: 0, limit: 5, total: 5)])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == (0..<5).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            #expect(world.fake.calls.count == 2)
        }
    }

    @Test func listKeepsItsClientSideRateLimit() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 25)
            let pages = (0..<5).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 25) }
            let result = try world.list(["--rate", "2/s"], lines: pages)

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines.count == 25)
            let times = world.fake.calls.map(\.time)
            try #require(times.count == 5)
            // A burst of two, then one call every half second: the fifth
            // cannot come before 1.5 s (a lower bound only; a busy machine is slower).
            #expect(times[4] - times[0] >= 1.3, "calls at \(times)")
        }
    }

    @Test func listInterruptedMidRunWritesInterruptedRecordsForThePagesInFlight() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 15)
            world.fake.delay(60, list: .search("spiders"), offset: 5)
            world.fake.delay(60, list: .search("spiders"), offset: 10)
            let pages = (0..<3).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 15) }
            let stage = try world.start(["list", "--concurrency", "2"], stdin: Array(pages.map { $0 + "\n" }.joined().utf8),
                                        keepStdinOpen: true)
            let firstDone = stage.waitForStdoutLines(5, timeout: 60)
            let inFlight = world.fake.wait(timeout: 60) { world.fake.calls.count >= 3 }
            stage.send(signal: SIGINT)
            let result = world.finish(stage)

            #expect(firstDone)
            #expect(inFlight)
            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 130)
            try #require(result.stdoutLines.count == 7)
            #expect(Array(result.stdoutLines.prefix(5))
                == (0..<5).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            try expectPageError(result.stdoutLines[5], code: "interrupted", page: pages[1], attempts: nil)
            try expectPageError(result.stdoutLines[6], code: "interrupted", page: pages[2], attempts: nil)
        }
    }

    /// Regression (issue 16 #6): on SIGINT the pages not yet read from stdin
    /// vanished (10 pages in: 91 gifs and one `interrupted` record out, the 7
    /// others gone), so --retry-errors could not take them back. The pages
    /// upstream still writes become `interrupted` records too.
    @Test func listInterruptedTurnsThePagesStillComingOnStdinIntoInterruptedRecords() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 30)
            world.fake.delay(60, list: .search("spiders"), offset: 0)
            let pages = (0..<6).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 30) }
            let stage = try world.start(["list", "--concurrency", "1"], stdin: Array((pages[0] + "\n").utf8), keepStdinOpen: true)
            let inFlight = world.fake.wait(timeout: 60) { world.fake.calls.count >= 1 }
            stage.send(signal: SIGINT)
            stage.feed(Array(pages.dropFirst().map { $0 + "\n" }.joined().utf8))
            stage.closeStdin()
            let result = world.finish(stage)

            #expect(inFlight)
            #expect(result.exitCode == 130)
            try #require(result.stdoutLines.count == 6)
            for (index, line) in result.stdoutLines.enumerated() {
                try expectPageError(line, code: "interrupted", page: pages[index], attempts: nil)
            }
            // The pages never run are run later (the first still answers slowly).
            let replay = try world.list(["--retry-errors"], lines: Array(result.stdoutLines.dropFirst()))
            #expect(replay.exitCode == 0)
            #expect(replay.stdoutLines.count == 25)
        }
    }

    @Test func listRetriesServerErrors() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.serverError(503), times: 1, list: .search("spiders"))
            world.fake.fail(.serverError(500), times: 1, list: .search("spiders"))
            let result = try world.list(["--max-wait", "3s"], lines: [pageLine("spiders", offset: 0, limit: 5, total: 5)])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == (0..<5).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            #expect(world.fake.calls.map(\.status) == [503, 500, 200])
        }
    }

    @Test func listRetriesASyntheticResponse() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.synthetic, times: 1, list: .search("spiders"))
            let result = try world.list(["--max-wait", "2s"], lines: [pageLine("spiders", offset: 0, limit: 5, total: 5)])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines == (0..<5).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            #expect(world.fake.calls.count == 2)
        }
    }

    @Test func listSyntheticResponsesThatPersistBecomeASyntheticError() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.synthetic, times: .max, list: .search("spiders"))
            let page = pageLine("spiders", offset: 0, limit: 5, total: 5)
            let result = try world.list(["--max-wait", "1s"], lines: [page])

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectPageError(result.stdoutLines[0], code: "synthetic", page: page, attempts: 2)
            #expect(world.fake.calls.count == 2, "retried, not taken for the end of the results")
        }
    }

    /// Defect 5 of "Hostile input, third pass", for Giphy: a `1e400` in a
    /// field nobody reads lost the page. Every GIF comes out, in one call.
    @Test func listANumberPastADoubleInAFieldNobodyReadsCostsNothing() throws {
        try withWorld { world in
            var gifs = (0..<3).map { FakeGiphy.generated(.search("spiders"), $0) }
            gifs[1].raw = gifs[1].json.replacingOccurrences(of: #""is_sticker":0"#, with: #""is_sticker":1e400"#)
            world.fake.set(.search("spiders"), items: gifs)
            let result = try world.list([], lines: [pageLine("spiders", offset: 0, limit: 3, total: 3)])

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdoutLines == gifs.enumerated().map { gifLine($1, rank: $0, query: "spiders") })
            #expect(world.fake.calls.count == 1)
            #expect(result.stderr.contains("1e400"), "\(result.stderr)")
        }
    }

    @Test func listUnderstandsTheBareRateLimitShape() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.bare(status: 429, message: "API rate limit exceeded"), times: 1)
            let result = try world.list(["--max-wait", "2s"], lines: [pageLine("spiders", offset: 0, limit: 5, total: 5)])

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines.count == 5)
            #expect(world.fake.calls.map(\.status) == [429, 200])
        }
    }

    @Test func listBareInvalidCredentialsIsARefusedKey() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 5)
            world.fake.fail(.bare(status: 403, message: "Invalid authentication credentials"), times: .max)
            let page = pageLine("spiders", offset: 0, limit: 5, total: 5)
            let result = try world.list(["--max-wait", "3s"], lines: [page])

            #expect(result.exitCode == 1)
            #expect(world.fake.calls.count == 1, "no retries")
            expectOneMessageNamingTheKey(result.stderr)
            try #require(result.stdoutLines.count == 1)
            try expectPageError(result.stdoutLines[0], code: "unauthorized", page: page, attempts: nil)
        }
    }

    /// A refused key closed list's input at once: the pages the reader held
    /// (and those upstream still wrote) got no record, 8 of 2,000 pages were
    /// answered. The reader now stops as on a signal: every page gets its
    /// `unauthorized` record, in order (300 pages: far inside the drain's bounds).
    @Test func listRefusedKeyGivesEveryPageReadItsRecord() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 15)
            let pages = (0..<300).map { pageLine("spiders \($0 / 100)", offset: $0 % 100 * 5, limit: 5, total: 500) }
            let result = try world.list(["--concurrency", "1", "--buffer", "4"], lines: pages, key: .wrong("wrongKeyZZ81aa"))

            #expect(result.exitCode == 1)
            #expect(world.fake.calls.count == 1, "the server saw exactly one call")
            expectOneMessageNamingTheKey(result.stderr)
            #expect(result.stdoutLines.count == 300)
            for (line, page) in zip(result.stdoutLines, pages) {
                try expectPageError(line, code: "unauthorized", page: page, attempts: nil)
            }
        }
    }

    /// Regression (issue 16 #11): a call answered 429 counted against
    /// --max-calls, so `--max-calls 2` with one 429 gave one page, not two.
    @Test func listMaxCallsDoesNotCountACallRefusedFor429() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 20)
            world.fake.fail(.rateLimited, times: 1, list: .search("spiders"))
            let pages = (0..<3).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 20) }
            let result = try world.list(["--max-calls", "2", "--concurrency", "1", "--max-wait", "10s"], lines: pages)

            #expect(result.exitCode == 1)
            #expect(world.fake.calls.count == 3)
            // Two pages served (the first page's retry waited its backoff
            // while the next two used the two calls); before, only one.
            try #require(result.stdoutLines.count == 11)
            try expectPageError(result.stdoutLines[0], code: "max_calls", page: pages[0], attempts: nil)
            let gifs = (5..<15).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") }
            #expect(Array(result.stdoutLines.dropFirst()) == gifs)
        }
    }

    // MARK: - list: the stream contract

    @Test func listEndsQuietlyWhenDownstreamCloses() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 1500)
            let pages = (0..<30).map { pageLine("spiders", offset: $0 * 50, limit: 50, total: 1500) }
            let result = try world.list([], lines: pages, closeStdoutAfterLines: 1)

            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [gifLine(FakeGiphy.generated(.search("spiders"), 0), rank: 0, query: "spiders")])
            #expect(world.fake.calls.count <= 30)
        }
    }
}

// MARK: - The world of one test

/// A fake Giphy and ways to run giphy-pages against it.
private final class World {
    let fake: FakeGiphy
    /// Every key given to a child: none may show in its output.
    private(set) var secrets: [String]

    /// Each run gets a fresh API cache and data folder (the call budget), so
    /// runs of one test call the API as they did before those lasted across runs.
    private var folders: [String] = []
    /// The API cache of the last run started.
    private(set) var lastCache = ""

    init() throws {
        fake = try FakeGiphy()
        secrets = [fake.key]
    }

    deinit {
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func freshFolder() -> String {
        let path = NSTemporaryDirectory() + "sposure-giphy-pages-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    var key: String { fake.key }

    enum Key {
        case good
        case wrong(String)
        case none
    }

    func start(_ arguments: [String], stdin: [UInt8] = [], keepStdinOpen: Bool = false, closeStdoutAfterLines: Int? = nil,
               key: Key = .good, apiURL: String? = nil) throws -> StageProcess {
        lastCache = freshFolder()
        var environment = [
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "NO_COLOR": "1",
            "GIPHY_API_URL": apiURL ?? fake.baseURL,
            "SPOSURE_CACHE": lastCache, "SPOSURE_DATA": freshFolder(),
        ]
        var unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "KLIPY_API_KEY"]
        switch key {
        case .good: environment["GIPHY_API_KEY"] = fake.key
        case .wrong(let other):
            environment["GIPHY_API_KEY"] = other
            secrets.append(other)
        case .none: unset.append("GIPHY_API_KEY")
        }
        return try StageProcess(
            "giphy-pages", arguments: arguments, environment: environment, unsetEnvironment: unset,
            stdin: stdin, keepStdinOpen: keepStdinOpen, closeStdoutAfterLines: closeStdoutAfterLines)
    }

    /// Waits for `stage` (killing it after a generous safety timeout) and checks that no key leaked.
    func finish(_ stage: StageProcess, sourceLocation: SourceLocation = #_sourceLocation) -> StageProcess.Result {
        let result = stage.wait(timeout: 120)
        #expect(!result.timedOut, "killed after the safety timeout", sourceLocation: sourceLocation)
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        for secret in secrets {
            #expect(!stdout.contains(secret), "the API key appears in stdout", sourceLocation: sourceLocation)
            #expect(!result.stderr.contains(secret), "the API key appears in stderr", sourceLocation: sourceLocation)
        }
        return result
    }

    func plan(_ arguments: [String], key: Key = .good, apiURL: String? = nil, closeStdoutAfterLines: Int? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        finish(try start(["plan"] + arguments, closeStdoutAfterLines: closeStdoutAfterLines, key: key, apiURL: apiURL),
               sourceLocation: sourceLocation)
    }

    func list(_ arguments: [String], lines: [String], key: Key = .good, closeStdoutAfterLines: Int? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        let stdin = Array(lines.map { $0 + "\n" }.joined().utf8)
        return finish(try start(["list"] + arguments, stdin: stdin, closeStdoutAfterLines: closeStdoutAfterLines, key: key),
                      sourceLocation: sourceLocation)
    }
}

private func withWorld(_ body: (World) throws -> Void) throws {
    let world = try World()
    defer { world.fake.stop() }
    try body(world)
}

/// Forwards one child's stdout lines to another's stdin, as a shell pipe does.
private final class Relay {
    let from: StageProcess
    let to: StageProcess
    private var forwarded = 0

    init(from: StageProcess, to: StageProcess) {
        self.from = from
        self.to = to
    }

    func pump() {
        let lines = from.stdoutLinesSoFar
        while forwarded < lines.count {
            to.feed(Array((lines[forwarded] + "\n").utf8))
            forwarded += 1
        }
    }

    /// Pumps until `condition` holds or the safety `timeout` passes.
    func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            pump()
            if condition() { return true }
            usleep(20_000)
        }
        pump()
        return condition()
    }
}

// MARK: - Expected lines

/// A page record exactly as `giphy-pages plan` writes it.
private func pageLine(_ query: String?, offset: Int, limit: Int, total: Int?, rating: String = "g", lang: String = "en",
                      extra: String = "") -> String {
    let endpoint = query == nil ? "trending" : "search"
    var text = #"{"kind":"page","endpoint":"\#(endpoint)","#
    if let query { text += #""query":\#(FakeGiphy.jsonString(query)),"# }
    text += #""section":\#(FakeGiphy.jsonString(query ?? endpoint)),"offset":\#(offset),"limit":\#(limit),"#
    text += #""rating":"\#(rating)","lang":"\#(lang)","total":\#(total.map(String.init) ?? "null")"#
    return text + extra + "}"
}

/// A gif record exactly as `giphy-pages list` must write it for `gif`: numbers
/// as numbers, the URL as served, frames from the rendition else the original.
private func gifLine(_ gif: FakeGIF, rank: Int, query: String?, rendition: String = "fixed_height", title: String? = nil,
                     extra: String = "") -> String {
    let chosen = gif.rendition(rendition)
    let frames = chosen?.frames ?? gif.rendition("original")?.frames
    func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    var text = #"{"kind":"gif","id":\#(FakeGiphy.jsonString(gif.id)),"title":\#(FakeGiphy.jsonString(title ?? gif.title)),"#
    if let query { text += #""query":\#(FakeGiphy.jsonString(query)),"# }
    text += #""section":\#(FakeGiphy.jsonString(query ?? "trending")),"rank":\#(rank),"rendition":"\#(rendition)","#
    text += #""url":\#(FakeGiphy.jsonString(chosen?.url ?? "")),"width":\#(number(chosen?.width)),"height":\#(number(chosen?.height)),"#
    text += #""frames":\#(number(frames)),"size":\#(number(chosen?.size)),"cache_key":"giphy:\#(gif.id):\#(rendition)""#
    return text + extra + "}"
}

/// The JSON text of one field's value.
private func rawValue(_ record: JSONRecord, _ key: String) -> String {
    let holder = JSONRecord()
    holder.set("v", from: record, key: key)
    return holder.text
}

/// An error record of `giphy-pages list` made from `page`: the page's fields
/// in order and unchanged, then stage, code, error (and attempts when retried).
private func expectPageError(_ line: String, code: String, page: String, attempts: Int?,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
    let record = try JSONRecord.parse(line)
    let source = try JSONRecord.parse(page)
    #expect(record.kind == "error", "\(line)", sourceLocation: sourceLocation)
    #expect(record.string("stage") == "giphy-pages list", sourceLocation: sourceLocation)
    #expect(record.string("code") == code, "\(line)", sourceLocation: sourceLocation)
    #expect(!(record.string("error") ?? "").isEmpty, "no error message", sourceLocation: sourceLocation)
    let tail = ["stage", "code", "error"] + (attempts == nil ? [] : ["attempts"])
    #expect(record.keys == source.keys + tail, "\(line)", sourceLocation: sourceLocation)
    for key in source.keys where key != "kind" {
        #expect(rawValue(record, key) == rawValue(source, key), "field \(key) changed", sourceLocation: sourceLocation)
    }
    #expect(record.int("attempts") == attempts, sourceLocation: sourceLocation)
}

/// One clear message on stderr, naming GIPHY_API_KEY.
private func expectOneMessageNamingTheKey(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let lines = stderr.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    #expect(lines.count == 1, "stderr: \(stderr)", sourceLocation: sourceLocation)
    #expect(lines.first?.contains("GIPHY_API_KEY") == true, "stderr: \(stderr)", sourceLocation: sourceLocation)
}

/// The no-key message: names the variable, says where to get a key and that the demo plays offline.
private func expectHowToGetAKey(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stderr.contains("GIPHY_API_KEY"), "stderr: \(stderr)", sourceLocation: sourceLocation)
    #expect(stderr.contains("developers.giphy.com"), "stderr: \(stderr)", sourceLocation: sourceLocation)
    #expect(stderr.contains("pipelines/demo"), "stderr: \(stderr)", sourceLocation: sourceLocation)
}
