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
    // 429s, failures with the key masked, --verbose, a refused --api-url,
    // Klipy's quirks (ids past 2^53, repeats, has_next, sizes without a gif),
    // numbers past 64 bits, a budget file dated ahead or not a budget, a key
    // echoed in a good answer and an empty page that ends its list are
    // cases as data: Tests/Fixtures/giphy-pages/list-klipy-* and
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

    // One API refusing its key stops only its own pages: Tests/Fixtures/giphy-pages/list-one-refused-key-*.

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

    func start(_ arguments: [String], lines: [String] = [], folders: Folders? = nil, extra: [String: String] = [:],
               secrets more: [String] = []) throws -> StageProcess {
        let folders = folders ?? self.folders()
        var environment = [
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "NO_COLOR": "1", "KLIPY_API_KEY": fake.key,
            "KLIPY_API_URL": fake.baseURL, "SPOSURE_CACHE": folders.cache, "SPOSURE_DATA": folders.data,
        ]
        var unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "GIPHY_API_KEY"]
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

    func list(_ lines: [String], _ arguments: [String] = [], folders: Folders? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        finish(try start(["list"] + arguments, lines: lines, folders: folders), sourceLocation: sourceLocation)
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
