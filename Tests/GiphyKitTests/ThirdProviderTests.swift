// A third GIF API is one type that conforms to GIFAPI and one register call
// (issue 20): here a tiny one, "tenorish", with its own URL shape, paging by
// cursor-less page numbers, answer shape and key in a header-free query, is
// planned, listed by the real PageLister over libcurl against a server on
// 127.0.0.1, and its results come out as ordinary gif records. Nothing in
// the planner or the lister names it.

import NetKit
import Foundation
import GiphyKit
import RecordKit
import SposureKit
import Testing
import TestSupport

/// The whole of the third API.
struct TinyAPI: GIFAPI {
    var name: String { "tenorish" }
    var displayName: String { "Tenorish" }
    var keyVariable: String { "TENORISH_KEY" }
    var urlVariable: String { "TENORISH_URL" }
    var defaultBase: String { "http://127.0.0.1:9" }
    var keyHelp: String { "from nowhere" }
    var keyAdvice: String { "Make one up" }
    var defaultRate: (calls: Int, period: Double) { (0, 1) }
    var maxLimit: Int { 10 }
    var maxQueryLength: Int? { nil }
    var countsResults: Bool { false }
    var usesCustomerID: Bool { false }
    var renditions: [String] { ["small", "big"] }
    var defaultRendition: String { "small" }
    func chain(for rendition: String) -> [String] { [rendition] + renditions.filter { $0 != rendition } }

    func pages(endpoint: GiphyEndpoint, query: String?, section: String, total: Int?, limit: Int,
               maxResults: Int?, rating: String, lang: String) -> [PageRequest] {
        stride(from: 0, to: maxResults ?? limit, by: limit).map { offset in
            PageRequest(endpoint: endpoint, query: query, section: section, offset: offset, limit: limit,
                        rating: rating, lang: lang, total: nil, provider: GIFProvider(rawValue: name)!)
        }
    }
    func readPaging(_ record: JSONRecord, into page: inout PageRequest) throws(PageRequest.PageError) {
        page.offset = try PageRequest.whole(record, "offset", in: 0...1000, rule: "from 0 to 1000", record: "a Tenorish page")
        page.limit = try PageRequest.whole(record, "limit", in: 1...maxLimit, rule: "from 1 to 10", record: "a Tenorish page")
    }
    func record(of page: PageRequest) -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "page")
        record.set("provider", name)
        record.set("endpoint", page.endpoint.rawValue)
        if let query = page.query { record.set("query", query) }
        record.set("section", page.section)
        record.set("offset", page.offset)
        record.set("limit", page.limit)
        return record
    }
    func offsetCap(for endpoint: GiphyEndpoint) -> Int? { nil }
    func url(_ page: PageRequest, base: String, key: String, customerID: String) -> String {
        "\(base)/find?k=\(PageRequest.escape(key))&q=\(PageRequest.escape(page.query ?? ""))&from=\(page.offset)&n=\(page.limit)"
    }
    func displayURL(_ page: PageRequest, base: String, hasCustomerID: Bool) -> String {
        url(page, base: base, key: "REDACTED", customerID: "")
    }
    func masked(_ text: String) -> String { text }
    func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        guard status == 200, let json = body.withUnsafeBytes({ try? JSONRecord.parse($0) }), let items = json.objects("hits") else {
            return .failure(FetchFailure("bad_response", "no hits from \(url)"))
        }
        return .page(GiphyResponse.Page(items: items, totalCount: nil, offset: nil, hasNext: json.bool("more")))
    }
    func kept(_ items: [JSONRecord], page: PageRequest) -> ArraySlice<JSONRecord> { items.prefix(page.limit) }
    func id(of item: JSONRecord) -> String? { item.string("ref") }
    func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
              choices: [String]) -> Result<JSONRecord, GIFRecord.Problem> {
        guard let id = id(of: item) else { return .failure(GIFRecord.Problem(code: "bad_item", message: "no ref", id: nil)) }
        guard let size = choices.first(where: { item.string($0) != nil }), let url = item.string(size) else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "GIF \(id) has no size", id: id))
        }
        let chosen = GIFRecord.Rendition(name: size, url: url, width: nil, height: nil, frames: nil, size: nil, cacheKey: "\(name):\(id):\(size)")
        return .success(GIFRecord(provider: page.provider, id: id, title: item.string("caption") ?? "", page: page,
                                  index: index, chosen: chosen).record(carrying: pageRecord))
    }
}

@Suite(.serialized) struct ThirdProviderTests {
    @Test func aRegisteredAPIIsPlannedListedAndRecordedLikeTheOthers() throws {
        GIFProvider.register(TinyAPI())
        defer { GIFProvider.unregister("tenorish") }
        let provider = try #require(GIFProvider(rawValue: "tenorish"))
        #expect(GIFProvider.allCases.map(\.rawValue) == ["giphy", "klipy", "commons", "tenorish"])

        let server = try HTTPTestServer()
        defer { server.stop() }
        server.route("/find") { request in
            let from = request.query?.contains("from=2") == true ? 2 : 0
            let hits = (from..<from + 2).map { #"{"ref":"t\#($0)","caption":"spider \#($0)\u001b[2J","small":"http://x/\#($0).gif"}"# }
            return .ok(Array(#"{"hits":[\#(hits.joined(separator: ","))],"more":true}"#.utf8), contentType: "application/json")
        }

        // The planner's side: the API plans its own pages, and the record round-trips.
        let pages = provider.api.pages(endpoint: .search, query: "spiders", section: "spiders", total: nil, limit: 2,
                                       maxResults: 4, rating: "g", lang: "en")
        #expect(pages.map(\.offset) == [0, 2])
        let lines = pages.map { String(decoding: $0.record().serialized(), as: UTF8.self) }
        for page in pages { #expect(try PageRequest(record: page.record()) == page) }

        // The lister's side, in this process, over real pipes and libcurl.
        let access = try APIAccess(provider: provider, apiURL: "http://127.0.0.1:\(server.port)",
                                   environment: ["TENORISH_KEY": "s3cret-key"])
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0 && pipe(&errors) == 0)
        _ = writeAll(input[1], lines.map { $0 + "\n" }.joined())
        close(input[1])
        let stage = Stage(name: "giphy-pages list", options: StageOptions(), inputFD: input[0], outputFD: output[1], errorFD: errors[1])
        var configuration = ListConfiguration()
        configuration.rate = (0, 1)
        let lister = try PageLister(stage: stage, access: access, configuration: configuration)
        stage.parsedKinds = ["page", "error"]
        stage.start(trapSignals: false)
        let failed = lister.run()
        #expect(stage.drain(failed: failed) == 0)
        close(output[1])
        close(errors[1])
        let out = String(decoding: readAll(output[0]) ?? [], as: UTF8.self)
        let records = try out.split(separator: "\n").map { try JSONRecord.parse(String($0)) }
        #expect(records.map { $0.string("id") } == ["t0", "t1", "t2", "t3"])
        #expect(records.allSatisfy { $0.kind == "gif" && $0.string("provider") == "tenorish" && $0.string("rendition") == "small" })
        #expect(records.map { $0.int("rank") } == [0, 1, 2, 3])
        #expect(records.first?.string("title") == "spider 0", "remote text cleaned like every API's")
        #expect(records.first?.string("cache_key") == "tenorish:t0:small")
        #expect(!out.contains("s3cret-key"))
        #expect(server.requests.count == 2)
    }
}
