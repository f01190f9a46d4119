// Unit tests of GiphyKit: the six real responses of ../shared/corpus/giphy read
// through GiphyResponse.interpret and GIFRecord.make, checked field by field;
// then the pieces of the plan and the lister (PagePlan, QueryDebouncer,
// RateLimiter, RecentIDs, GIFRecord.cleanTitle, PageRequest, GiphyAccess).
//
// The corpus is found from this file: Tests/GiphyKitTests → ../../../shared/corpus/giphy.
// When it is absent, the corpus tests print why and pass without checking,
// except under CI, where a missing corpus fails them.

import Foundation
import GiphyKit
import NetKit
import RecordKit
import SposureKit
import Testing
import TestSupport

// MARK: - The corpus

/// The corpus folder, or nil (with a message) when it is absent.
private func corpusFolder(_ test: String = #function) -> URL? {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/giphy", isDirectory: true).standardizedFileURL
    guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.txt").path) else {
        if Corpus.required {
            Issue.record("the Giphy corpus is absent (looked for \(folder.path)); CI needs ../shared/corpus")
        } else {
            print("GiphyCorpusTests.\(test): SKIPPED — the Giphy corpus is absent (looked for \(folder.path))")
        }
        return nil
    }
    return folder
}

private let corpusFiles = [
    "empty_offset_ge_5000.json",
    "error_429_rate_limited.json",
    "gif_by_id_giphy-js.json",
    "search_5items_giphy-js.json",
    "search_limit1_giphy_get.json",
    "trending_25items_ryanw-mobile.json",
]

private func corpusBody(_ folder: URL, _ file: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
}

/// The same file, read by Foundation: the independent oracle for the checks.
private func corpusObject(_ folder: URL, _ file: String) throws -> [String: Any] {
    let data = try Data(contentsOf: folder.appendingPathComponent(file))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

private let displayURL = "https://api.giphy.com/v1/gifs/search?api_key=REDACTED&q=test&limit=50&offset=0&rating=g&lang=en"

private func page(_ endpoint: GiphyEndpoint, _ query: String?, offset: Int = 0, limit: Int = 50, total: Int? = nil) -> PageRequest {
    PageRequest(endpoint: endpoint, query: query, section: query ?? endpoint.rawValue, offset: offset, limit: limit,
                rating: "g", lang: "en", total: total)
}

private func interpretedPage(_ response: GiphyResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> GiphyResponse.Page {
    guard case .page(let page) = response else {
        Issue.record("expected a page, got \(response)", sourceLocation: sourceLocation)
        throw Stop()
    }
    return page
}

private struct Stop: Error {}

private func failureOf(_ response: GiphyResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> FetchFailure {
    guard case .failure(let failure) = response else {
        Issue.record("expected a failure, got \(response)", sourceLocation: sourceLocation)
        throw Stop()
    }
    return failure
}

private func makeRecord(_ item: JSONRecord, index: Int, page: PageRequest, rendition: String = "fixed_height",
                        pageRecord: JSONRecord? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONRecord {
    switch GiphyAPI().make(item: item, index: index, page: page, pageRecord: pageRecord ?? page.record(),
                          choices: GiphyAPI().chain(for: rendition)) {
    case .success(let record): return record
    case .failure(let problem):
        Issue.record("no record: \(problem.code): \(problem.message)", sourceLocation: sourceLocation)
        throw Stop()
    }
}

/// What the gif record of a Giphy item must hold, read from Foundation's parse.
private func expectRecord(_ record: JSONRecord, matches item: [String: Any], rank: Int, page: PageRequest,
                          rendition: String = "fixed_height", sourceLocation: SourceLocation = #_sourceLocation) throws {
    let id = try #require(item["id"] as? String, sourceLocation: sourceLocation)
    let images = try #require(item["images"] as? [String: Any], sourceLocation: sourceLocation)
    let chosen = try #require(images[rendition] as? [String: Any], sourceLocation: sourceLocation)
    let original = images["original"] as? [String: Any]
    let title = (item["title"] as? String ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    func number(_ object: [String: Any]?, _ key: String) -> Int? { (object?[key] as? String).flatMap { Int($0) } }

    // The creator (issue 22): the user's display name, else its username, else the item's username.
    let user = item["user"] as? [String: Any]
    let creator = [user?["display_name"], user?["username"], item["username"]].compactMap { $0 as? String }
        .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    var keys = ["kind", "id", "title"]
    if creator != nil { keys.append("creator") }
    if page.query != nil { keys.append("query") }
    keys += ["section", "rank", "rendition", "url", "width", "height", "frames", "size", "cache_key"]
    #expect(record.keys == keys, sourceLocation: sourceLocation)
    #expect(record.string("kind") == "gif", sourceLocation: sourceLocation)
    #expect(record.string("id") == id, sourceLocation: sourceLocation)
    #expect(record.string("title") == title, sourceLocation: sourceLocation)
    #expect(record.string("creator") == creator, sourceLocation: sourceLocation)
    #expect(record.string("query") == page.query, sourceLocation: sourceLocation)
    #expect(record.string("section") == page.section, sourceLocation: sourceLocation)
    #expect(record.int("rank") == rank, sourceLocation: sourceLocation)
    #expect(record.string("rendition") == rendition, sourceLocation: sourceLocation)
    #expect(record.string("url") == chosen["url"] as? String, "the URL must be kept exactly", sourceLocation: sourceLocation)
    // Numbers as numbers (int() is nil for a string).
    #expect(record.int("width") == number(chosen, "width"), sourceLocation: sourceLocation)
    #expect(record.int("height") == number(chosen, "height"), sourceLocation: sourceLocation)
    #expect(record.int("size") == number(chosen, "size"), sourceLocation: sourceLocation)
    #expect(record.int("frames") == (number(chosen, "frames") ?? number(original, "frames")), sourceLocation: sourceLocation)
    #expect(record.int("width") != nil && record.int("height") != nil && record.int("size") != nil && record.int("frames") != nil,
            sourceLocation: sourceLocation)
    #expect(record.string("cache_key") == "giphy:\(id):\(rendition)", sourceLocation: sourceLocation)
}

struct GiphyCorpusTests {

    @Test func allSixCorpusFilesAreReadAsWhatTheyAre() throws {
        guard let folder = corpusFolder() else { return }
        for file in corpusFiles {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "missing \(file)")
        }
        for file in corpusFiles {
            let status = file.hasPrefix("error_429") ? 429 : 200
            let response = GiphyAPI().interpret(status: status, body: try corpusBody(folder, file), url: displayURL)
            switch (file, response) {
            case ("error_429_rate_limited.json", .failure(let failure)):
                #expect(failure.code == "rate_limited")
            case (_, .page):
                #expect(file != "error_429_rate_limited.json")
            default:
                Issue.record("\(file): unexpected \(response)")
            }
        }
    }

    @Test func firstTrendingItemMakesTheExactGIFRecord() throws {
        guard let folder = corpusFolder() else { return }
        let response = GiphyAPI().interpret(status: 200, body: try corpusBody(folder, "trending_25items_ryanw-mobile.json"), url: displayURL)
        let result = try interpretedPage(response)
        let first = try #require(result.items.first)
        let trending = page(.trending, nil, limit: 25, total: 4019)
        let record = try makeRecord(first, index: 0, page: trending)
        #expect(record.text == """
            {"kind":"gif","id":"MEaoJYLUpIL31xrE77","title":"College Basketball Sport GIF by Ohio State Athletics",\
            "creator":"Ohio State Athletics","section":"trending","rank":0,"rendition":"fixed_height",\
            "url":"https://media3.giphy.com/media/MEaoJYLUpIL31xrE77/200.gif?cid=98362685wta46elpz5zfhdb6okolm2wl2gbbodlr8qh45pny&rid=200.gif&ct=g",\
            "width":200,"height":200,"frames":42,"size":436527,"cache_key":"giphy:MEaoJYLUpIL31xrE77:fixed_height"}
            """)
    }

    @Test func trendingPageGivesTwentyFiveRecordsFieldByField() throws {
        guard let folder = corpusFolder() else { return }
        let file = "trending_25items_ryanw-mobile.json"
        let result = try interpretedPage(GiphyAPI().interpret(status: 200, body: try corpusBody(folder, file), url: displayURL))
        #expect(result.items.count == 25)
        #expect(result.totalCount == 4019)
        #expect(result.offset == 0)
        let oracle = try #require(try corpusObject(folder, file)["data"] as? [[String: Any]])
        let trending = page(.trending, nil, offset: 0, limit: 25, total: 4019)
        for (index, item) in result.items.enumerated() {
            let record = try makeRecord(item, index: index, page: trending)
            try expectRecord(record, matches: oracle[index], rank: index, page: trending)
            #expect(record.string("url")?.contains("?cid=98362685") == true)
            #expect(record.string("url")?.hasSuffix("&rid=200.gif&ct=g") == true)
        }
        // The double space of a real title is folded.
        let second = try makeRecord(result.items[1], index: 1, page: trending)
        #expect(second.string("title") == "Happy Birthday Dancing GIF by Just Dance")
    }

    @Test func searchOfFiveItemsGivesRecordsRankedFromThePageOffset() throws {
        guard let folder = corpusFolder() else { return }
        let file = "search_5items_giphy-js.json"
        let result = try interpretedPage(GiphyAPI().interpret(status: 200, body: try corpusBody(folder, file), url: displayURL))
        #expect(result.items.count == 5)
        #expect(result.totalCount == 5)
        let oracle = try #require(try corpusObject(folder, file)["data"] as? [[String: Any]])
        let search = page(.search, "always sunny", offset: 25, limit: 5, total: 5)
        for (index, item) in result.items.enumerated() {
            let record = try makeRecord(item, index: index, page: search)
            try expectRecord(record, matches: oracle[index], rank: 25 + index, page: search)
        }
        let first = try makeRecord(result.items[0], index: 0, page: search)
        #expect(first.text == """
            {"kind":"gif","id":"l0IylOPCNkiqOgMyA","title":"Always Sunny Fx GIF","query":"always sunny","section":"always sunny",\
            "rank":25,"rendition":"fixed_height","url":"https://media3.giphy.com/media/l0IylOPCNkiqOgMyA/200.gif",\
            "width":316,"height":200,"frames":39,"size":1998875,"cache_key":"giphy:l0IylOPCNkiqOgMyA:fixed_height"}
            """)
    }

    @Test func searchPingWithLimitOneLearnsTheTotal() throws {
        guard let folder = corpusFolder() else { return }
        let result = try interpretedPage(GiphyAPI().interpret(
            status: 200, body: try corpusBody(folder, "search_limit1_giphy_get.json"), url: displayURL))
        #expect(result.totalCount == 10049)
        #expect(result.offset == 0)
        #expect(result.items.count == 1)
        let ping = page(.search, "applause", limit: 1)
        let record = try makeRecord(try #require(result.items.first), index: 0, page: ping)
        #expect(record.text == """
            {"kind":"gif","id":"5xaOcLDE64VMF4LqqrK","title":"toronto raptors applause GIF","query":"applause",\
            "section":"applause","rank":0,"rendition":"fixed_height","url":"https://media1.giphy.com/media/5xaOcLDE64VMF4LqqrK/200.gif",\
            "width":202,"height":200,"frames":73,"size":1592173,"cache_key":"giphy:5xaOcLDE64VMF4LqqrK:fixed_height"}
            """)
    }

    @Test func gifByIDIsOneItemWithoutATotal() throws {
        guard let folder = corpusFolder() else { return }
        let file = "gif_by_id_giphy-js.json"
        let result = try interpretedPage(GiphyAPI().interpret(status: 200, body: try corpusBody(folder, file), url: displayURL))
        #expect(result.items.count == 1)
        #expect(result.totalCount == nil)
        let oracle = try #require(try corpusObject(folder, file)["data"] as? [String: Any])
        let search = page(.search, "surf", offset: 0, limit: 1)
        let record = try makeRecord(try #require(result.items.first), index: 0, page: search)
        try expectRecord(record, matches: oracle, rank: 0, page: search)
        #expect(record.string("id") == "l0HlyLQsbvhciAuKA")
        #expect(record.string("url") == "https://media3.giphy.com/media/l0HlyLQsbvhciAuKA/200.gif?cid=9f0f64258d093c222a5c058e0ba384203b07211f39c5ec49&rid=200.gif")
        #expect(record.int("width") == 187)
        #expect(record.int("frames") == 16)
    }

    @Test func emptyPagePastOffset5000IsAPageWithNoItemsAndTotalZero() throws {
        guard let folder = corpusFolder() else { return }
        let response = GiphyAPI().interpret(status: 200, body: try corpusBody(folder, "empty_offset_ge_5000.json"), url: displayURL)
        let result = try interpretedPage(response)
        #expect(result.items.isEmpty)
        #expect(result.totalCount == 0)
        #expect(result.offset == 0)
    }

    @Test func rateLimitedFileIsARetriableRateLimitWhateverTheHTTPStatus() throws {
        guard let folder = corpusFolder() else { return }
        let body = try corpusBody(folder, "error_429_rate_limited.json")
        for status in [429, 200] {
            let failure = try failureOf(GiphyAPI().interpret(status: status, body: body, url: displayURL))
            #expect(failure.code == "rate_limited", "HTTP \(status)")
            #expect(failure.transient, "HTTP \(status)")
        }
    }
}

// MARK: - Responses beyond the corpus

struct GiphyResponseTests {

    @Test func syntheticResponseIsARetriableFailureNotTheEnd() throws {
        let body = Array(#"{"data":[],"meta":{"status":200,"msg":"OK","response_id":""}}"#.utf8)
        let failure = try failureOf(GiphyAPI().interpret(status: 200, body: body, url: displayURL))
        #expect(failure.code == "synthetic")
        #expect(failure.transient)
        // An honest empty page (pagination and a response_id) is not synthetic.
        let honest = Array(#"{"data":[],"pagination":{"total_count":0,"count":0,"offset":0},"meta":{"status":200,"msg":"OK","response_id":"abc"}}"#.utf8)
        let page = try interpretedPage(GiphyAPI().interpret(status: 200, body: honest, url: displayURL))
        #expect(page.items.isEmpty)
        #expect(page.totalCount == 0)
    }

    @Test func bareErrorShapeIsUnderstood() throws {
        let limited = Array(#"{"message":"API rate limit exceeded"}"#.utf8)
        for status in [429, 200] {
            let failure = try failureOf(GiphyAPI().interpret(status: status, body: limited, url: displayURL))
            #expect(failure.code == "rate_limited", "HTTP \(status)")
            #expect(failure.transient)
        }
        let invalid = Array(#"{"message":"Invalid authentication credentials"}"#.utf8)
        for status in [403, 401, 200] {
            guard case .unauthorized(let message) = GiphyAPI().interpret(status: status, body: invalid, url: displayURL) else {
                Issue.record("HTTP \(status): not unauthorized")
                continue
            }
            #expect(message.contains("Invalid authentication credentials"))
        }
    }

    @Test func metaShapeUnauthorizedIsARefusedKey() {
        let body = Array(#"{"data":[],"meta":{"status":401,"msg":"Unauthorized","response_id":""}}"#.utf8)
        for status in [401, 200] {
            guard case .unauthorized = GiphyAPI().interpret(status: status, body: body, url: displayURL) else {
                Issue.record("HTTP \(status): not unauthorized")
                continue
            }
        }
        guard case .unauthorized = GiphyAPI().interpret(status: 403, body: Array("Forbidden".utf8), url: displayURL) else {
            Issue.record("403 with a text body: not unauthorized")
            return
        }
    }

    @Test func serverErrorsAreRetriableAndNeverCarryTheKey() throws {
        let secret = "s3cretKeyValue99"
        let url = "http://127.0.0.1:1/v1/gifs/search?api_key=\(secret)&q=x&limit=1&offset=0&rating=g&lang=en"
        for status in [500, 502, 503] {
            let failure = try failureOf(GiphyAPI().interpret(status: status, body: Array("<html>oops</html>".utf8), url: url))
            #expect(failure.code == "http_\(status)")
            #expect(failure.transient)
            #expect(!failure.message.contains(secret), "\(failure.message)")
        }
        let tooLong = try failureOf(GiphyAPI().interpret(status: 414, body: [], url: displayURL))
        #expect(tooLong.code == "query_too_long")
        #expect(!tooLong.transient)
        let notFound = try failureOf(GiphyAPI().interpret(status: 404, body: [], url: displayURL))
        #expect(notFound.code == "http_404")
        #expect(!notFound.transient)
    }
}

// MARK: - GIF records

struct GIFRecordTests {

    private func item(_ gif: FakeGIF) throws -> JSONRecord { try JSONRecord.parse(gif.json) }

    @Test func emptyOrMissingRenditionFallsBackAlongTheChain() throws {
        let search = page(.search, "spiders", offset: 10, limit: 5, total: 99)
        let base = FakeGIF.make(id: "fb1", title: "Fallback", frames: 12)

        let empty = try makeRecord(try item(base.emptying("fixed_height")), index: 0, page: search)
        #expect(empty.string("rendition") == "fixed_height_downsampled")
        #expect(empty.string("url") == base.rendition("fixed_height_downsampled")?.url)
        #expect(empty.int("frames") == 12, "frames come from the original")
        #expect(empty.string("cache_key") == "giphy:fb1:fixed_height_downsampled")

        let missing = try makeRecord(try item(base.without("fixed_height", "fixed_height_downsampled")), index: 1, page: search)
        #expect(missing.string("rendition") == "fixed_width")
        #expect(missing.int("rank") == 11)

        let noURL = base.setting("fixed_height", FakeRendition(width: 300, height: 200, size: 5))
        #expect(try makeRecord(try item(noURL), index: 2, page: search).string("rendition") == "fixed_height_downsampled")

        let webpOnly = base.setting("fixed_height", FakeRendition(url: "https://media0.giphy.com/media/fb1/200.webp?cid=x&rid=200.webp&ct=g", width: 1, height: 1))
        #expect(try makeRecord(try item(webpOnly), index: 3, page: search).string("rendition") == "fixed_height_downsampled")

        let other = try makeRecord(try item(base), index: 0, page: search, rendition: "downsized")
        #expect(other.string("rendition") == "downsized")
        let otherFallback = try makeRecord(try item(base.without("downsized")), index: 0, page: search, rendition: "downsized")
        #expect(otherFallback.string("rendition") == "fixed_height")
    }

    @Test func gifWithoutAnyGIFRenditionIsNoRendition() throws {
        let search = page(.search, "spiders")
        let chain = GiphyAPI().chain(for: "fixed_height")
        var bare = FakeGIF.make(id: "nr1")
        for name in chain { bare = bare.emptying(name) }
        switch GiphyAPI().make(item: try JSONRecord.parse(bare.json), index: 0, page: search, pageRecord: nil, choices: chain) {
        case .success(let record): Issue.record("made \(record.text)")
        case .failure(let problem):
            #expect(problem.code == "no_rendition")
            #expect(problem.id == "nr1")
        }
        let noImages = try JSONRecord.parse(#"{"type":"gif","id":"nr2","title":"x"}"#)
        switch GiphyAPI().make(item: noImages, index: 0, page: search, pageRecord: nil, choices: chain) {
        case .success(let record): Issue.record("made \(record.text)")
        case .failure(let problem): #expect(problem.code == "no_rendition")
        }
        let noID = try JSONRecord.parse(#"{"type":"gif","title":"x","images":{}}"#)
        switch GiphyAPI().make(item: noID, index: 0, page: search, pageRecord: nil, choices: chain) {
        case .success(let record): Issue.record("made \(record.text)")
        case .failure(let problem): #expect(problem.code == "bad_item")
        }
    }

    @Test func fieldsOfThePageRecordThatItDoesNotOwnAreCarriedAfterTheGIFsOwn() throws {
        let pageRecord = try JSONRecord.parse(#"{"kind":"page","carousel":"featured","endpoint":"search","query":"spiders","section":"Scary","offset":0,"limit":5,"rating":"g","lang":"en","total":9,"rank":77,"seq":[1,2]}"#)
        let request = try PageRequest(record: pageRecord)
        let gif = FakeGIF.make(id: "cf1", title: "Carry")
        let record = try makeRecord(try JSONRecord.parse(gif.json), index: 2, page: request, pageRecord: pageRecord)
        #expect(record.keys == ["kind", "id", "title", "query", "section", "rank", "rendition", "url", "width", "height", "frames",
                                "size", "cache_key", "carousel", "seq"])
        #expect(record.string("section") == "Scary")
        #expect(record.int("rank") == 2, "the GIF's own rank wins over a page field of that name")
        #expect(record.string("carousel") == "featured")
    }

    @Test func cleanTitleRemovesControlCharactersAndFoldsWhiteSpace() {
        #expect(GIFRecord.cleanTitle("Spider\tin\nthe  bath") == "Spider in the bath")
        #expect(GIFRecord.cleanTitle("   padded title  ") == "padded title")
        #expect(GIFRecord.cleanTitle("Araña 🕷️ GIF") == "Araña 🕷️ GIF")
        for title in ["bell\u{07}here", "del\u{7F}here", "c1\u{85}here", "bidi \u{202E}reversed", "isolate \u{2066}x\u{2069}", "nul\u{0}x"] {
            let clean = GIFRecord.cleanTitle(title)
            #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, "\(clean.debugDescription)")
        }
        #expect(GIFRecord.cleanTitle(String(repeating: "a", count: 500)).count == 200)
        #expect(GIFRecord.cleanTitle("") == "")
    }

    @Test func cleanTitleRemovesTerminalEscapeSequencesWhole() {
        // Remote text reaches terminals: not only the ESC byte but the whole
        // sequence must go, so no "[31m" debris is left in the title.
        let cases: [(String, String)] = [
            ("Red\u{1B}[31m Spider\u{1B}[0m GIF", "Red Spider GIF"),
            ("\u{1B}[2J\u{1B}[HClear screen", "Clear screen"),
            ("Title\u{1B}]0;pwned\u{07} here", "Title here"),
            ("C1 \u{9B}31mcsi", "C1 csi"),
        ]
        for (title, expected) in cases {
            let clean = GIFRecord.cleanTitle(title)
            #expect(!clean.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "\(clean.debugDescription)")
            #expect(clean == expected, "cleanTitle(\(title.debugDescription))")
        }
    }
}

// MARK: - Planning

struct PagePlanTests {
    // What plan prints for a total, a limit, the offset caps (4999 for search,
    // 499 for trending), --max-results, --interleave and --shuffle is
    // Tests/Fixtures/giphy-pages/plan-*; here the shapes no case runs. Every
    // page is `limit` long but the last, one after the other from offset 0.
    @Test(arguments: [
        // endpoint, total, limit, --max-results → pages, the last (offset, limit)
        (GiphyEndpoint.search, 4000, 50, 75, 2, [50, 25]),
        (.search, nil, 50, 10, 1, [0, 10]),
        (.search, nil, 50, nil, 100, [4950, 50]),
        (.search, 5000, 7, nil, 715, [4998, 2]),
        (.search, 100_000, 100, nil, 50, [4900, 100]),
        (.search, 0, 50, nil, 0, []),
        (.trending, 4019, 25, 2000, 20, [475, 25]),
    ] as [(GiphyEndpoint, Int?, Int, Int?, Int, [Int])])
    func pagesStopAtTheTotalTheMaximumOrTheOffsetCap(endpoint: GiphyEndpoint, total: Int?, limit: Int, maxResults: Int?,
                                                      count: Int, last: [Int]) {
        let query = endpoint == .search ? "a" : nil
        let pages = GiphyAPI().pages(endpoint: endpoint, query: query, section: query ?? "trending", total: total, limit: limit,
                                     maxResults: maxResults, rating: "g", lang: "en")
        #expect(pages.count == count)
        #expect(pages.last.map { [$0.offset, $0.limit] } ?? [] == last)
        #expect(pages.map(\.offset) == Array(stride(from: 0, to: count * limit, by: limit)))
        #expect(pages.dropLast().allSatisfy { $0.limit == limit && $0.total == total })
        #expect(PagePlan.interleave([]).isEmpty && PagePlan.shuffle([], seed: 1).isEmpty)
    }
}

// MARK: - Debounce, rate limit, repeats

struct ListerPartsTests {

    @Test func debouncerLetsThroughOnlyTheQueryThatStands() {
        var debouncer = QueryDebouncer(interval: 0.5)
        #expect(debouncer.deadline == nil)
        debouncer.type("s", at: 0.0)
        debouncer.type("sp", at: 0.1)
        debouncer.type("spi", at: 0.2)
        let early = debouncer.due(at: 0.6)
        #expect(early == nil, "\"s\" was replaced within the interval")
        debouncer.type("spiders", at: 0.3)
        #expect(debouncer.deadline == 0.8)
        let notYet = debouncer.due(at: 0.79)
        #expect(notYet == nil)
        let due = debouncer.due(at: 0.8)
        #expect(due == "spiders")
        let again = debouncer.due(at: 5)
        #expect(again == nil, "taken once")
        #expect(debouncer.deadline == nil)
        debouncer.type("snakes", at: 2.0)
        let last = debouncer.flush()
        #expect(last == "snakes", "the last query stands at the end of input")
        let nothing = debouncer.flush()
        #expect(nothing == nil)
    }

    @Test func rateLimiterAllowsABurstThenSpacesCalls() {
        var limiter = RateLimiter(calls: 2, period: 10, now: 0)
        var waits: [Double] = []
        waits.append(limiter.wait(at: 0))
        limiter.take(at: 0)
        waits.append(limiter.wait(at: 0))
        limiter.take(at: 0)
        waits.append(limiter.wait(at: 0))
        waits.append(limiter.wait(at: 2.5))
        waits.append(limiter.wait(at: 5))
        limiter.take(at: 5)
        // Idle time refills up to the bucket size, no more.
        waits.append(limiter.wait(at: 1000))
        limiter.take(at: 1000)
        limiter.take(at: 1000)
        waits.append(limiter.wait(at: 1000))
        #expect(waits.count == 7)
        #expect(waits[0] == 0 && waits[1] == 0, "a burst of two")
        #expect(abs(waits[2] - 5) < 1e-9, "then one call every 5 s")
        #expect(abs(waits[3] - 2.5) < 1e-9)
        #expect(waits[4] == 0)
        #expect(waits[5] == 0)
        #expect(waits[6] > 0, "the bucket holds two calls, not more")

        var unlimited = RateLimiter(calls: 0, period: 1, now: 0)
        for _ in 0..<1000 { unlimited.take(at: 0) }
        let free = unlimited.wait(at: 0)
        #expect(free == 0)
    }

    @Test func recentIDsDropRepeatsAndForgetTheOldestPastCapacity() {
        var ids = RecentIDs(capacity: 3)
        let steps = ["a", "b", "c", "a", "c", "d", "a", "d", "b"].map { ids.insert($0) }
        // a b c new; a c repeats; d evicts a; a is new again (forgotten: bounded)
        // and evicts b; d a repeat; b new again.
        #expect(steps == [true, true, true, false, false, true, true, false, true])

        var big = RecentIDs(capacity: 1000)
        let fresh = (0..<5000).map { big.insert("id\($0)") }
        #expect(fresh.allSatisfy { $0 })
        let recent = (4000..<5000).map { big.insert("id\($0)") }
        #expect(recent.allSatisfy { !$0 }, "the last 1000 are remembered")
        let old = big.insert("id0")
        #expect(old, "older ones are forgotten")

        var tiny = RecentIDs(capacity: 0)
        #expect(tiny.capacity == 1)
        let once = tiny.insert("x")
        let twice = tiny.insert("x")
        #expect(once && !twice)
    }
}

// MARK: - Page requests and the key

struct PageRequestTests {

    private func request(_ text: String) throws -> PageRequest { try PageRequest(record: try JSONRecord.parse(text)) }

    private func refused(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let page = try request(text)
            Issue.record("accepted \(text) as \(page)", sourceLocation: sourceLocation)
        } catch {}
    }

    @Test func validPageRecordsAreRead() throws {
        let full = try request(#"{"kind":"page","endpoint":"search","query":"spiders","section":"Scary","offset":100,"limit":50,"rating":"pg","lang":"es","total":4210}"#)
        #expect(full == PageRequest(endpoint: .search, query: "spiders", section: "Scary", offset: 100, limit: 50, rating: "pg", lang: "es", total: 4210))
        let inferred = try request(#"{"kind":"page","query":"snakes","offset":0,"limit":25}"#)
        #expect(inferred == PageRequest(endpoint: .search, query: "snakes", section: "snakes", offset: 0, limit: 25, rating: "g", lang: "en", total: nil))
        let trending = try request(#"{"kind":"page","endpoint":"trending","offset":450,"limit":50,"total":null}"#)
        #expect(trending == PageRequest(endpoint: .trending, query: nil, section: "trending", offset: 450, limit: 50, rating: "g", lang: "en", total: nil))
        let fifty = String(repeating: "x", count: 50)
        #expect(try request(#"{"kind":"page","endpoint":"search","query":"\#(fifty)","offset":0,"limit":1}"#).query == fifty)
        // The record made again reads back the same.
        #expect(try PageRequest(record: full.record()) == full)
    }

    /// Regression (issue 16 #11): `"offset":"0"` got `needs "offset" ≥ 0`,
    /// which it seemed to meet; the message now says what is there.
    @Test func aBadNumberIsNamedForWhatItIs() {
        func message(_ text: String) -> String {
            do { _ = try request(text); return "accepted" } catch { return "\(error)" }
        }
        #expect(message(#"{"kind":"page","query":"x","offset":"0","limit":5}"#)
            == #"a page record's "offset" must be a whole number ≥ 0, not a string ("0")"#)
        #expect(message(#"{"kind":"page","query":"x","offset":-5,"limit":5}"#) == #"a page record needs "offset" ≥ 0, not -5"#)
        #expect(message(#"{"kind":"page","query":"x","offset":0}"#) == #"a page record needs "limit" (a whole number from 1 to 100)"#)
        #expect(message(#"{"kind":"page","query":"x","offset":0,"limit":2.5}"#)
            == #"a page record's "limit" must be a whole number from 1 to 100"#)
    }

    /// Review fix: a Klipy page past any list overflowed (page - 1) × per_page and crashed the lister.
    @Test func aKlipyPageNumberTooLargeIsRefusedNotACrash() {
        do {
            _ = try request(#"{"kind":"page","provider":"klipy","endpoint":"trending","page":9223372036854775807,"per_page":50}"#)
            Issue.record("accepted")
        } catch {
            #expect("\(error)" == "a Klipy page record needs \"page\" from 1 to 1000000, not 9223372036854775807")
        }
    }

    @Test func invalidPageRecordsAreRefused() {
        refused(#"{"kind":"page","offset":0,"limit":50}"#)
        refused(#"{"kind":"page","endpoint":"random","offset":0,"limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","offset":0,"limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"","offset":0,"limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"\#(String(repeating: "x", count: 51))","offset":0,"limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"a","offset":-1,"limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"a","limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"a","offset":"0","limit":50}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"a","offset":0,"limit":0}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"a","offset":0,"limit":101}"#)
        refused(#"{"kind":"page","endpoint":"search","query":"a","offset":0}"#)
    }

    @Test func urlCarriesEveryParameterAndDisplayURLNeverTheKey() {
        let key = "k3yS3cret+/="
        let search = PageRequest(endpoint: .search, query: "black widow & co", section: "x", offset: 100, limit: 50,
                                 rating: "pg-13", lang: "es", total: 7)
        #expect(GiphyAPI().url(search, base: "http://127.0.0.1:8080/", key: key, customerID: "")
            == "http://127.0.0.1:8080/v1/gifs/search?api_key=k3yS3cret%2B%2F%3D&q=black%20widow%20%26%20co&limit=50&offset=100&rating=pg-13&lang=es")
        let shown = GiphyAPI().displayURL(search, base: "http://127.0.0.1:8080", hasCustomerID: false)
        #expect(shown == "http://127.0.0.1:8080/v1/gifs/search?api_key=REDACTED&q=black%20widow%20%26%20co&limit=50&offset=100&rating=pg-13&lang=es")
        #expect(!shown.contains("k3y"))
        let trending = PageRequest(endpoint: .trending, query: nil, section: "trending", offset: 0, limit: 25, rating: "g", lang: "en", total: nil)
        #expect(GiphyAPI().url(trending, base: "https://api.giphy.com", key: "abc", customerID: "")
            == "https://api.giphy.com/v1/gifs/trending?api_key=abc&limit=25&offset=0&rating=g&lang=en")
        #expect(!GiphyAPI().displayURL(trending, base: "https://api.giphy.com", hasCustomerID: false).contains("abc"))
    }

    @Test func accessReadsTheEnvironmentAndHidesTheKey() throws {
        let secret = "envSecretKey4242"
        let access = try GiphyAccess(apiURL: nil, environment: ["GIPHY_API_KEY": secret, "GIPHY_API_URL": "http://127.0.0.1:9/"])
        #expect(access.base == "http://127.0.0.1:9")
        let request = PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 0, limit: 1, rating: "g", lang: "en", total: nil)
        #expect(access.url(request).contains("api_key=\(secret)"))
        #expect(!access.displayURL(request).contains(secret))
        #expect(!access.redact("GET \(access.url(request)) said \(secret)").contains(secret))
        // Beside a combining mark the key is still found (a character-wise search misses it).
        #expect(access.redact("said \(secret)\u{301} and \u{301}\(secret)") == "said REDACTED\u{301} and \u{301}REDACTED")
        let refusal = access.refusal("Unauthorized")
        #expect(refusal.contains("GIPHY_API_KEY"))
        #expect(!refusal.contains(secret))

        let flag = try GiphyAccess(apiURL: "http://flag.example", environment: ["GIPHY_API_KEY": secret, "GIPHY_API_URL": "http://env.example"])
        #expect(flag.base == "http://flag.example")
        let plain = try GiphyAccess(apiURL: nil, environment: ["GIPHY_API_KEY": secret])
        #expect(plain.base == "https://api.giphy.com")

        for environment in [[:], ["GIPHY_API_KEY": ""], ["GIPHY_API_KEY": "   "]] as [[String: String]] {
            do {
                _ = try GiphyAccess(apiURL: nil, environment: environment)
                Issue.record("a key from \(environment)")
            } catch {
                #expect(error.description.contains("GIPHY_API_KEY"))
                #expect(error.description.contains("developers.giphy.com"))
                #expect(error.description.contains("pipelines/demo"))
            }
        }
    }
}
