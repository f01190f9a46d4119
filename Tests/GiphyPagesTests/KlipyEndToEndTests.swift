// End-to-end tests of the built `giphy-pages` speaking to Klipy (issue 14),
// over real pipes against FakeKlipy, modelled on ../shared/corpus/klipy: the
// key as a path segment, numbered pages and has_next, 16-digit ids past 2^53,
// sizes and formats that may be missing, 429 and a refused key. Also the API
// answers kept in the cache, and the call budget kept in the data folder and
// shared by processes. Every run gets its own temporary cache and data folder
// unless a test shares them on purpose, and every run checks that no key
// appears in its stdout or stderr.

import Foundation
import SposureKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized)
struct KlipyEndToEndTests {
    // 429s, failures with the key masked, --verbose and a refused --api-url
    // are cases as data: Tests/Fixtures/giphy-pages/list-klipy-* and
    // list-one-api-url-for-two-keys-is-refused (GoldenTests).

    // MARK: - list

    @Test func listReadsTheCorpusAnswerExactly() throws {
        guard let items = FakeKlipyItem.corpus() else {
            #expect(!Corpus.required, Comment(rawValue: Corpus.absentReason("klipy")))
            return
        }
        try withKlipy { world in
            world.fake.set("adios", items: items)
            let page = klipyPage("adios", page: 1, perPage: 50, limit: 50)
            let result = try world.list([page])

            #expect(result.exitCode == 0)
            try #require(result.stdoutLines.count == items.count)
            #expect(result.stdoutLines[0] == #"{"kind":"gif","provider":"klipy","id":"1149612604962814","title":"Adios GIF Master Cat in Mountains","query":"adios","section":"adios","rank":0,"rendition":"sm","url":"https://static.klipy.com/ii/c3a19a0b747a76e98651f2b9a3cca5ff/b5/53/43gEZFgS.webp","width":220,"height":165,"frames":null,"size":47781,"cache_key":"klipy:1149612604962814:sm.webp","mime":"image/webp"}"#, "its sm webp: a third of its gif's 143,343 bytes")
            #expect(!String(decoding: result.stdout, as: UTF8.self).contains("data:image"), "blur_preview never reaches a record")
            let call = try #require(world.fake.calls.first)
            #expect(call.query == "adios" && call.page == 1 && call.perPage == 50)
            #expect(call.contentFilter == "high" && call.locale == "en")
            let customer = try #require(call.customerID)
            #expect(customer.count >= 16, "a random customer_id")
        }
    }

    @Test func listHandlesKlipysQuirks() throws {
        try withKlipy { world in
            // Page 1: 4 items; page 2 repeats the last id of page 1; an item
            // lacks md's gif, one lacks hd, a title carries escape sequences.
            let first = (0..<4).map { FakeKlipyItem(id: 9_007_199_254_740_993 + UInt64($0) * 2, title: "spider \($0)") }
            var items = first
            items[1] = items[1].withoutGIF("md")
            items[2] = items[2].without("hd")
            items[3].title = "evil \u{1B}[31mred\u{1B}]52;c;aGk=\u{07} title"
            items.append(first[3])  // page 2 starts with page 1's last id
            items.append(FakeKlipyItem(id: 1_000_000_000_000_001, title: "last"))
            world.fake.set("spiders", items: items)
            let pages = (1...4).map { klipyPage("spiders", page: $0, perPage: 4, limit: 4) }
            let result = try world.list(pages, ["--rendition", "md", "--concurrency", "1"])

            #expect(result.exitCode == 0)
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(records.map { $0.string("id") ?? "?" } == [
                "9007199254740993", "9007199254740995", "9007199254740997", "9007199254740999", "1000000000000001",
            ], "ids exact past 2^53, the repeat dropped")
            #expect(records.map { $0.string("rendition") ?? "?" } == ["md", "hd", "md", "md", "md"], "md without a gif falls back to hd")
            #expect(records[3].string("title") == "evil red title")
            #expect(records.allSatisfy { $0.string("provider") == "klipy" && $0.kind == "gif" })
            #expect(records[4].int("rank") == 5, "rank counts the dropped repeat's place")
            #expect(world.fake.calls.map { $0.page ?? 0 } == [1, 2], "page 2 said has_next: false: pages 3 and 4 cost no call")
            #expect(result.stderr.contains("has_next: false"))
            #expect(result.stderr.components(separatedBy: "has_next").count == 2, "said once")

            let hd = try world.list([klipyPage("spiders", page: 1, perPage: 4, limit: 4)], ["--rendition", "hd"])
            let sizes = try hd.stdoutLines.map { try JSONRecord.parse($0).string("rendition") ?? "?" }
            #expect(sizes == ["hd", "hd", "md", "hd"], "an item without hd gets the next size")
        }
    }

    /// Defect 5 of "Hostile input, third pass": one integer past 2^63 or a
    /// `1e400` anywhere in an answer lost the whole page (`bad_response: …
    /// not a JSON object`), and the answer was retried, a call each time.
    /// The page is read in one call; only the result whose id the number
    /// was becomes a `bad_item` record that names it, and stderr names the numbers.
    @Test func numbersPastWhatJSONReadersHoldCostOnlyTheResultTheyMakeUnusable() throws {
        try withKlipy { world in
            let host = "https://static.klipy.com"
            var items = (0..<5).map { FakeKlipy.generated("spiders", $0) }
            items[1].raw = items[1].json(host: host)
                .replacingOccurrences(of: #""type":"gif""#, with: #""type":"gif","views":99999999999999999999,"score":1e400"#)
            items[3].raw = items[3].json(host: host)
                .replacingOccurrences(of: "{\"id\":\(items[3].id),", with: #"{"id":99999999999999999999,"#)
            world.fake.set("spiders", items: items)
            let result = try world.list([klipyPage("spiders", page: 1, perPage: 5, limit: 5)], ["--max-wait", "5s"])

            #expect(result.exitCode == 1, "\(result)")
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(world.fake.calls.count == 1, "read, not retried")
            try #require(records.map { $0.kind ?? "" } == ["gif", "gif", "gif", "error", "gif"], "\(result.stdoutLines)")
            #expect(records[1].string("id") == String(items[1].id), "a number in a field nobody reads costs nothing")
            #expect(records[3].string("code") == "bad_item")
            #expect(records[3].string("error")?.contains("past 64-bit integers") == true, "\(records[3].text)")
            #expect(result.stderr.contains("99999999999999999999") && result.stderr.contains("1e400"), "\(result.stderr)")
        }
    }

    /// Defect 6 of "Hostile input, third pass": an API that answers every
    /// page empty with `has_next: true` made `plan --provider klipy q
    /// --max-results 100000 | list` spend 100 calls in 2.4 s for no GIF. An
    /// empty page ends its query: the pages after it are `list_ended`
    /// records without a call (one line on stderr), which --retry-errors
    /// takes back; another query in the same stream goes on.
    @Test func anEmptyPageEndsItsQueryThoughTheAPIClaimsMore() throws {
        try withKlipy { world in
            world.fake.set("nothing", count: 0)
            world.fake.claimMore("nothing")
            world.fake.set("spiders", count: 5)
            let plan = try world.run(["plan", "--provider", "klipy", "nothing", "--max-results", "100000"])
            #expect(plan.stdoutLines.count == 2000)
            let lines = plan.stdoutLines + [klipyPage("spiders", page: 1, perPage: 5, limit: 5)]
            let result = try world.list(lines)

            #expect(result.exitCode == 1, "\(result.stderr)")
            let nothing = world.fake.calls.filter { $0.query == "nothing" }
            #expect(nothing.count >= 1 && nothing.count <= 2, "the pages in flight when the first came back (--concurrency 2): \(nothing.count)")
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            let ended = records.filter { $0.string("code") == "list_ended" }
            #expect(ended.count == 2000 - nothing.count, "every later page, without a call")
            // Which of the pages in flight answered first is a race: page 1, or page 2 with two in flight.
            let emptyAt = (1...nothing.count).map { "came back empty at page \($0)," }
            #expect(emptyAt.contains { ended.first?.string("error")?.contains($0) == true }, "\(ended.first?.text ?? "")")
            #expect(records.filter { $0.kind == "gif" }.count == 5, "the other query goes on")
            let said = result.stderr.split(separator: "\n").filter { $0.contains("came back empty") }
            #expect(said.count == 1, "\(result.stderr.prefix(2000))")

            // Once the list has results, --retry-errors takes the pages back.
            world.fake.set("nothing", count: 200)
            let again = try world.list([try #require(ended.first).text], ["--retry-errors"])
            #expect(again.exitCode == 0, "\(again)")
            #expect(again.stdoutLines.count == 50)
        }
    }

    /// Defect 9 of "Hostile input, third pass": a key echoed in a 200
    /// answer (a title, a media URL, written as is or escaped) reached the
    /// `gif` record and the API cache's file. Masked in both.
    @Test func aKeyEchoedInAGoodAnswerIsMaskedInTheRecordsAndTheCache() throws {
        try withKlipy { world in
            let key = world.fake.key
            let host = "https://static.klipy.com"
            var items = (0..<3).map { FakeKlipy.generated("spiders", $0) }
            items[0].title = "echo \(key) end"
            items[1].raw = items[1].json(host: host).replacingOccurrences(of: "/ii/\(items[1].id)/", with: "/ii/\(key)/")
            let escaped = "\\u00" + String(key.utf8.first ?? 0, radix: 16) + key.dropFirst()
            items[2].raw = items[2].json(host: host).replacingOccurrences(of: #""title":"spiders klipy 2""#, with: #""title":"\#(escaped)""#)
            world.fake.set("spiders", items: items)
            let shared = world.folders()
            let result = try world.list([klipyPage("spiders", page: 1, perPage: 3, limit: 3)], folders: shared)

            #expect(result.exitCode == 0, "\(result)")
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            try #require(records.count == 3)
            #expect(records[0].string("title") == "echo REDACTED end")
            #expect(records[1].string("url") == "\(host)/ii/REDACTED/sm.webp")
            #expect(records[2].string("title") == "REDACTED")
            let files = (FileManager.default.enumerator(atPath: shared.cache + "/api")?.allObjects.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".json") }
            try #require(files.count == 1)
            let kept = try String(contentsOfFile: shared.cache + "/api/" + files[0], encoding: .utf8)
            #expect(!kept.contains(key) && !kept.contains(escaped), "the cache file holds no key")
            // Read back from the cache, the records are the same.
            let again = try world.list([klipyPage("spiders", page: 1, perPage: 3, limit: 3)], folders: shared)
            #expect(again.stdoutLines == result.stdoutLines)
            #expect(world.fake.calls.count == 1)
            // (finish() checks that the key is in no stdout and no stderr.)
        }
    }

    // MARK: - The API cache

    /// A second run from the cache, and --api-ttl 0: Tests/Fixtures/giphy-pages/list-klipy-a-second-run-*, list-klipy-api-ttl-0-*.
    @Test func answersOlderThanTheAPITTLAreAskedAgain() throws {
        try withKlipy { world in
            world.fake.set("spiders", count: 15)
            let shared = world.folders()
            let pages = [klipyPage("spiders", page: 1, perPage: 10, limit: 10), klipyPage("spiders", page: 2, perPage: 10, limit: 10)]
            let first = try world.list(pages, folders: shared)
            #expect(first.stdoutLines.count == 15 && world.fake.calls.count == 2)
            let files = FileManager.default.enumerator(atPath: shared.cache + "/api")?.allObjects.compactMap { $0 as? String } ?? []
            #expect(files.filter { $0.hasSuffix(".json") }.count == 2)
            for file in files where file.hasSuffix(".json") {
                #expect(!(try String(contentsOfFile: shared.cache + "/api/" + file, encoding: .utf8)).contains(world.fake.key))
            }
            usleep(1_300_000)
            let expired = try world.list(pages, ["--api-ttl", "1s"], folders: shared)
            #expect(expired.stdoutLines == first.stdoutLines)
            #expect(world.fake.calls.count == 4, "answers older than --api-ttl are asked again")
        }
    }

    // MARK: - The budget

    /// Each API has its own budget, so a spent one holds back only its own
    /// pages: a list of Giphy and Klipy pages (two plans in one stream) goes
    /// on calling Klipy while Giphy's next call waits (it held every page).
    @Test func aSpentBudgetHoldsBackOnlyItsOwnAPIsPages() throws {
        let giphy = try FakeGiphy()
        defer { giphy.stop() }
        giphy.set(.search("spiders"), count: 30)
        try withKlipy { world in
            world.fake.set("spiders", count: 10)
            let giphyPages = (0..<2).map {
                #"{"kind":"page","provider":"giphy","endpoint":"search","query":"spiders","section":"spiders","offset":\#($0 * 5),"limit":5,"rating":"g","lang":"en","total":30}"#
            }
            let lines = giphyPages + [klipyPage("spiders", page: 1, perPage: 5, limit: 5)]
            let stage = try world.start(["list", "--rate", "1/m", "--max-wait", "300", "--verbose"], lines: lines,
                                        extra: ["GIPHY_API_KEY": giphy.key, "GIPHY_API_URL": giphy.baseURL], secrets: [giphy.key])
            // Both first pages answered (traced before their records are
            // made, in the same pass), while Giphy's second waits.
            func answered(_ path: String) -> Bool {
                stage.stderrSoFar.split(separator: "\n").contains { $0.contains("· HTTP 200 in ") && $0.contains(path) }
            }
            let deadline = Date().addingTimeInterval(30)
            while !(answered("/api/v1/REDACTED/gifs/search?") && answered("/v1/gifs/search?api_key=")) && Date() < deadline {
                usleep(10_000)
            }
            #expect(answered("/api/v1/REDACTED/gifs/search?"), "Klipy waited for Giphy's budget: \(stage.stderrSoFar)")
            #expect(giphy.calls.count == 1, "Giphy's second page waits for its budget")
            #expect(stage.stderrSoFar.contains("the next giphy call in "), "\(stage.stderrSoFar)")
            stage.send(signal: SIGTERM)
            let result = world.finish(stage)
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(records.map { $0.kind ?? "" } == Array(repeating: "gif", count: 5) + ["error"] + Array(repeating: "gif", count: 5), "\(result)")
            #expect(records[5].string("code") == "interrupted")
            #expect(records.last?.string("provider") == "klipy")
        }
    }

    /// One API refusing its key stops only its own pages: with both keys
    /// set, Klipy's pages are still listed, Giphy's each get an
    /// `unauthorized` record (one call, one message), and the run exits 1.
    @Test func oneRefusedKeyStopsOnlyItsOwnAPIsPages() throws {
        let giphy = try FakeGiphy()
        defer { giphy.stop() }
        try withKlipy { world in
            world.fake.set("spiders", count: 10)
            let giphyPages = (0..<3).map {
                #"{"kind":"page","provider":"giphy","endpoint":"search","query":"spiders","section":"spiders","offset":\#($0 * 5),"limit":5,"rating":"g","lang":"en","total":30}"#
            }
            let lines = giphyPages + [klipyPage("spiders", page: 1, perPage: 5, limit: 5), klipyPage("spiders", page: 2, perPage: 5, limit: 5)]
            let wrong = "wrongGiphyKey42zz"
            let result = world.finish(try world.start(["list", "--concurrency", "1"], lines: lines,
                                                      extra: ["GIPHY_API_KEY": wrong, "GIPHY_API_URL": giphy.baseURL], secrets: [wrong]))
            #expect(result.exitCode == 1, "\(result)")
            #expect(giphy.calls.count == 1, "one refused call; the other Giphy pages cost none")
            #expect(world.fake.calls.count == 2)
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(records.prefix(3).map { $0.string("code") } == Array(repeating: "unauthorized", count: 3), "\(result)")
            #expect(records[1].string("error") == "not run: the Giphy API refused the key")
            #expect(records.dropFirst(3).count == 10 && records.dropFirst(3).allSatisfy { $0.kind == "gif" && $0.string("provider") == "klipy" })
            #expect(result.stderr.components(separatedBy: "refused the key").count == 2, "said once: \(result.stderr)")
        }
    }

    @Test func theBudgetIsSharedByConcurrentProcessesAndLastsAcrossRuns() throws {
        try withKlipy { world in
            world.fake.set("spiders", count: 100)
            world.fake.set("snakes", count: 100)
            let shared = world.folders()
            let spiders = (1...4).map { klipyPage("spiders", page: $0, perPage: 5, limit: 5) }
            let snakes = (1...4).map { klipyPage("snakes", page: $0, perPage: 5, limit: 5) }
            let a = try world.start(["list", "--rate", "4/day"], lines: spiders, folders: shared)
            let b = try world.start(["list", "--rate", "4/day"], lines: snakes, folders: shared)
            let results = [world.finish(a), world.finish(b)]

            #expect(world.fake.calls.count == 4, "four calls in all, for both processes")
            let records = try results.flatMap { try $0.stdoutLines.map { try JSONRecord.parse($0) } }
            #expect(records.filter { $0.kind == "gif" }.count == 20)
            let limited = records.filter { $0.string("code") == "rate_limited" }
            #expect(limited.count == 4)
            #expect(limited.allSatisfy { ($0.string("error") ?? "").contains("allowed again in") })
            // Which process got the calls is a race: the one with a held-back page exits 1.
            for result in results {
                let heldBack = result.stdoutLines.contains { $0.contains(#""code":"rate_limited""#) }
                #expect(result.exitCode == (heldBack ? 1 : 0), "\(result)")
            }

            // A later run within the day: still spent, no call; --retry-errors keeps the pages.
            let later = try world.list(limited.map(\.text), ["--rate", "4/day", "--retry-errors"], folders: shared)
            #expect(world.fake.calls.count == 4)
            #expect(try later.stdoutLines.map { try JSONRecord.parse($0).string("code") } == Array(repeating: "rate_limited", count: 4))
            // With a larger allowance the replay runs.
            let replay = try world.list(limited.map(\.text), ["--rate", "100/day", "--retry-errors"], folders: shared)
            #expect(replay.exitCode == 0)
            #expect(replay.stdoutLines.count == 20)
        }
    }

    /// Defect 2 of "Hostile input, third pass": a budget file dated an hour
    /// ahead never drained (the spent budget wrote nothing back), so a page
    /// waited for ever on a budget of 2/s. Repaired to now, said once, and
    /// the page is called half a second later.
    @Test func aBudgetFileDatedInTheFutureIsRepairedAndDrains() throws {
        try withKlipy { world in
            world.fake.set("spiders", count: 5)
            let shared = world.folders()
            let path = shared.data + "/budget-klipy.json"
            let ahead = Date().timeIntervalSince1970 + 3600
            try #"{"kind":"budget","provider":"klipy","used":2,"at":\#(ahead)}"#.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try world.list([klipyPage("spiders", page: 1, perPage: 5, limit: 5)], ["--rate", "2/s", "--max-wait", "10s"], folders: shared)

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdoutLines.count == 5)
            #expect(world.fake.calls.count == 1)
            let repaired = result.stderr.split(separator: "\n").filter { $0.contains("budget") }
            #expect(repaired.count == 1 && repaired.first?.contains("repaired") == true, "one line: \(result.stderr)")
            let kept = try JSONRecord.parse(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .newlines))
            #expect((kept.double("at") ?? .infinity) <= Date().timeIntervalSince1970, "the file's time is now: \(kept.text)")
        }
    }

    /// Defect 3 of "Hostile input, third pass", second half: garbage in the
    /// budget file reset it to nothing used without a word. One line says
    /// so, and the file is a budget again.
    @Test func garbageInTheBudgetFileIsSaidOnce() throws {
        try withKlipy { world in
            world.fake.set("spiders", count: 10)
            let shared = world.folders()
            let path = shared.data + "/budget-klipy.json"
            try "\u{0}\u{1}not a budget".write(toFile: path, atomically: true, encoding: .utf8)
            let pages = (1...2).map { klipyPage("spiders", page: $0, perPage: 5, limit: 5) }
            let result = try world.list(pages, ["--rate", "100/day"], folders: shared)
            #expect(result.exitCode == 0, "\(result)")
            let said = result.stderr.split(separator: "\n").filter { $0.contains("is not a budget") }
            #expect(said.count == 1, "\(result.stderr)")
            let kept = try JSONRecord.parse(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .newlines))
            #expect((kept.double("used") ?? 0) > 1.9, "two calls, draining since: \(kept.text)")
        }
    }

    // MARK: - Planted links (issue 24, defect 1)

    /// As root, with an API cache file replaced by a link to /etc/passwd,
    /// `list` overwrote /etc/passwd with an API answer; the budget file did
    /// the same. Links planted at the cache answer, the budget and the
    /// customer id: each is replaced by the program's own file, and the file
    /// it named is untouched (nor sent to Klipy as the customer id).
    @Test func linksPlantedInTheCacheAndTheDataFolderAreNeverWrittenThrough() throws {
        try withKlipy { world in
            world.fake.set("spiders", count: 5)
            let shared = world.folders()
            let pages = [klipyPage("spiders", page: 1, perPage: 5, limit: 5)]
            let first = try world.list(pages, ["--rate", "100/day"], folders: shared)
            #expect(first.exitCode == 0, "\(first.stderr)")
            let answers = (FileManager.default.enumerator(atPath: shared.cache + "/api")?.allObjects.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".json") }
            let answer = shared.cache + "/api/" + (try #require(answers.first))
            let victim = NSTemporaryDirectory() + "sposure-victim-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: victim) }
            let precious = "root:x:0:0:root:/root:/bin/bash\n"
            try precious.write(toFile: victim, atomically: true, encoding: .utf8)
            // An old target: the answer read through the link would be stale anyway.
            var old = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, victim, &old, 0) == 0)
            let planted = [answer, shared.data + "/budget-klipy.json", shared.data + "/klipy-customer-id"]
            for path in planted {
                try FileManager.default.removeItem(atPath: path)
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
            }

            let second = try world.list(pages, ["--rate", "100/day", "--verbose"], folders: shared)
            #expect(second.exitCode == 0, "\(second.stderr)")
            #expect(second.stdoutLines.count == 5)
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == precious, "the linked file is untouched")
            for path in planted {
                var info = stat()
                #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "\(path) is the program's own file again")
            }
            #expect(world.fake.calls.allSatisfy { !($0.customerID ?? "").contains("root") }, "the linked file was not sent as the customer id")
            let budget = try String(contentsOfFile: shared.data + "/budget-klipy.json", encoding: .utf8)
            #expect(budget.contains(#""used":"#), "\(budget)")
        }
    }
}

// MARK: - The world of one test

private final class KlipyWorld {
    let fake: FakeKlipy
    private var secrets: [String]
    private var made: [String] = []

    init() throws {
        fake = try FakeKlipy()
        secrets = [fake.key]
    }

    deinit {
        for folder in made { try? FileManager.default.removeItem(atPath: folder) }
    }

    struct Folders {
        var cache: String
        var data: String
    }

    private func temporary() -> String {
        let path = NSTemporaryDirectory() + "sposure-klipy-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        made.append(path)
        return path
    }

    /// A fresh cache and data folder.
    func folders() -> Folders { Folders(cache: temporary(), data: temporary()) }

    func start(_ arguments: [String], lines: [String] = [], key: String? = FakeKlipy.defaultKey, apiURL: String? = nil,
               folders: Folders? = nil, extra: [String: String] = [:], secrets more: [String] = []) throws -> StageProcess {
        let folders = folders ?? self.folders()
        var environment = [
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "NO_COLOR": "1",
            "KLIPY_API_URL": apiURL ?? fake.baseURL, "SPOSURE_CACHE": folders.cache, "SPOSURE_DATA": folders.data,
        ]
        var unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "GIPHY_API_KEY", "KLIPY_API_KEY"]
        if let key {
            environment["KLIPY_API_KEY"] = key
            unset.removeAll { $0 == "KLIPY_API_KEY" }
            secrets.append(key)
        }
        for (name, value) in extra {
            environment[name] = value
            unset.removeAll { $0 == name }
        }
        secrets += more
        let stdin = Array(lines.map { $0 + "\n" }.joined().utf8)
        return try StageProcess("giphy-pages", arguments: arguments, environment: environment, unsetEnvironment: unset, stdin: stdin)
    }

    /// Waits for `stage` and checks that no key leaked.
    func finish(_ stage: StageProcess, sourceLocation: SourceLocation = #_sourceLocation) -> StageProcess.Result {
        let result = stage.wait(timeout: 120)
        #expect(!result.timedOut, "killed after the safety timeout", sourceLocation: sourceLocation)
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        for secret in secrets {
            #expect(!stdout.contains(secret), "a key appears in stdout", sourceLocation: sourceLocation)
            #expect(!result.stderr.contains(secret), "a key appears in stderr", sourceLocation: sourceLocation)
        }
        return result
    }

    func run(_ arguments: [String], key: String? = FakeKlipy.defaultKey, folders: Folders? = nil, extra: [String: String] = [:],
             secrets: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        finish(try start(arguments, key: key, folders: folders, extra: extra, secrets: secrets), sourceLocation: sourceLocation)
    }

    func list(_ lines: [String], _ arguments: [String] = [], key: String? = FakeKlipy.defaultKey, apiURL: String? = nil,
              folders: Folders? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        finish(try start(["list"] + arguments, lines: lines, key: key, apiURL: apiURL, folders: folders), sourceLocation: sourceLocation)
    }
}

private func withKlipy(_ body: (KlipyWorld) throws -> Void) throws {
    let world = try KlipyWorld()
    defer { world.fake.stop() }
    try body(world)
}

/// A Klipy page record exactly as `giphy-pages plan --provider klipy` writes it.
private func klipyPage(_ query: String, page: Int, perPage: Int, limit: Int) -> String {
    #"{"kind":"page","provider":"klipy","endpoint":"search","query":\#(quoteJSON(query)),"section":\#(quoteJSON(query)),"page":\#(page),"per_page":\#(perPage),"offset":\#((page - 1) * perPage),"limit":\#(limit),"rating":"g","lang":"en"}"#
}
