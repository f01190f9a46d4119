// A Klipy-compatible API on 127.0.0.1 for end-to-end tests, on top of HTTPTestServer.
//
//   giphy-pages ──GET /api/v1/{KEY}/gifs/search?q&page&per_page&customer_id&locale&content_filter──▶ respond
//               ──GET /api/v1/{KEY}/gifs/trending?page&per_page&…───────────────────────────────▶    │
//                                                                                   ├─ log the call
//                                                                                   ├─ a key it refuses → 401
//                                                                                   ├─ empty q → 422
//                                                                                   ├─ a queued fault (429, 5xx)
//                                                                                   └─ page N of the list, has_next
//
// The answers have the shape of ../shared/corpus/klipy/search-page1.json:
// `{"result":true,"data":{"data":[…],"current_page":N,"per_page":N,"has_next":…}}`,
// 16-digit integer ids (some past 2^53), `file.{hd,md,sm,xs}.{gif,webp,mp4}`
// where any size or format may be missing, and a large `blur_preview` data URL.
// The key is a path segment: a key the fake does not know gets 404 unless
// ``refuse(key:)`` made it answer 401. With ``serveMedia(_:)`` the items' gif
// URLs point at the fake itself and serve a real GIF, for whole pipelines
// (their webp files then state more bytes than the GIF, so the GIF is listed).

import Foundation

/// One item of a fake Klipy answer.
public struct FakeKlipyItem: Sendable, Equatable {
    /// The integer id, written as a JSON number.
    public var id: UInt64
    public var title: String
    /// The sizes present, and for each whether it has a `gif`.
    public var sizes: [(name: String, gif: Bool)]
    /// When set, the item is served verbatim (an item of the corpus).
    public var raw: String?
    /// `tags` (the fake's own two when nil).
    public var tags: [String]?
    /// `slug` (made from the title when nil).
    public var slug: String?

    public static func == (a: FakeKlipyItem, b: FakeKlipyItem) -> Bool {
        a.id == b.id && a.title == b.title && a.raw == b.raw && a.tags == b.tags && a.slug == b.slug && a.sizes.map(\.name) == b.sizes.map(\.name)
            && a.sizes.map(\.gif) == b.sizes.map(\.gif)
    }

    /// An item with every size and format.
    public init(id: UInt64, title: String? = nil, raw: String? = nil) {
        self.id = id
        self.title = title ?? "Klipy \(id)"
        sizes = [("hd", true), ("md", true), ("sm", true), ("xs", true)]
        self.raw = raw
    }

    /// This item without the sizes `names`.
    public func without(_ names: String...) -> FakeKlipyItem {
        var copy = self
        copy.sizes.removeAll { names.contains($0.name) }
        return copy
    }

    /// The pixel size of `size`.
    public static func dimensions(_ size: String) -> (width: Int, height: Int) {
        switch size {
        case "hd": return (498, 374)
        case "md": return (440, 330)
        case "sm": return (220, 165)
        default: return (120, 90)
        }
    }

    /// The file size the fake says `size`'s gif has.
    public func byteSize(_ size: String) -> Int { Int(id % 1000) + ["hd": 90_000, "md": 40_000, "sm": 9_000, "xs": 2_000][size, default: 1] }

    /// The path of `size`'s `format` file on the media host.
    public func mediaPath(_ size: String, _ format: String) -> String { "/ii/\(id)/\(size).\(format)" }

    /// The item as the real API writes it, media on `host`; each size's webp
    /// states a third of its gif's bytes, or (`webpHeavier`, when the fake
    /// serves GIFs for a whole round) twice them, so the lister keeps the GIF.
    public func json(host: String, webpHeavier: Bool = false) -> String {
        if let raw { return raw }
        var files: [String] = []
        for (name, gif) in sizes {
            let (width, height) = Self.dimensions(name)
            var formats: [String] = []
            let kinds = (gif ? ["gif"] : []) + ["webp", "jpg", "mp4"]
            for format in kinds {
                let bytes = format == "gif" ? byteSize(name) : format == "webp" && webpHeavier ? byteSize(name) * 2 : byteSize(name) / 3
                formats.append("\(quoteJSON(format)):{\"url\":\(quoteJSON(host + mediaPath(name, format))),\"width\":\(width),\"height\":\(height),\"size\":\(bytes)}")
            }
            files.append("\(quoteJSON(name)):{\(formats.joined(separator: ","))}")
        }
        let slug = self.slug ?? title.lowercased().unicodeScalars.map { $0.isASCII && CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }.joined()
        let tags = (self.tags ?? ["fake", "klipy"]).map(quoteJSON).joined(separator: ",")
        let blur = "data:image/jpeg;base64," + String(repeating: "/9j/4AAQSkZJRgABAQ", count: 400)
        return "{\"id\":\(id),\"slug\":\(quoteJSON(slug)),\"title\":\(quoteJSON(title)),\"file\":{\(files.joined(separator: ","))},"
            + "\"tags\":[\(tags)],\"type\":\"gif\",\"blur_preview\":\(quoteJSON(blur))}"
    }

    // MARK: The corpus

    /// `../shared/corpus/klipy`, or `$SPOSURE_KLIPY_CORPUS`; nil when absent.
    public static var corpusDirectory: URL? {
        var candidates: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["SPOSURE_KLIPY_CORPUS"], !dir.isEmpty {
            candidates.append(URL(fileURLWithPath: dir, isDirectory: true))
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/corpus/klipy", isDirectory: true).standardizedFileURL)
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("search-page1.json").path) }
    }

    /// The items of the corpus answer, each served verbatim; nil when the corpus is absent.
    public static func corpus() -> [FakeKlipyItem]? {
        guard let directory = corpusDirectory,
              let text = try? String(contentsOf: directory.appendingPathComponent("search-page1.json"), encoding: .utf8),
              let outer = rawMember("data", of: text), let list = rawMember("data", of: outer) else { return nil }
        return rawElements(ofArray: list).compactMap { raw in
            guard let object = try? JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any],
                  let id = object["id"] as? NSNumber else { return nil }
            return FakeKlipyItem(id: id.uint64Value, title: object["title"] as? String ?? "", raw: raw)
        }
    }
}

/// A Klipy-compatible API: `/api/v1/{KEY}/gifs/search` and `/gifs/trending`.
public final class FakeKlipy: @unchecked Sendable {
    /// The key tests give the tools by default.
    public static let defaultKey = "klipyTestKey3Fq8Nw1Zt6Yp"

    /// A way for one call to fail.
    public enum Fault: Sendable, Equatable {
        /// 429 `{"result":false,"message":"Too Many Attempts."}`, with Retry-After when given.
        case rateLimited(retryAfter: Int?)
        /// 401 `{"result":false,"message":"Unauthorized"}`.
        case unauthorized
        /// A 5xx with an HTML body.
        case serverError(Int)
        /// The normal answer after this many seconds.
        case slow(Double)
        /// The normal answer after this many seconds, the wait ending early
        /// when the client gives up or the server stops (an API that answers
        /// after 200 s, whose connection threads must not outlive the test).
        case stalled(Double)
    }

    /// One call the fake received.
    public struct Call: Sendable {
        public var endpoint: String
        public var key: String
        public var query: String?
        public var page: Int?
        public var perPage: Int?
        public var customerID: String?
        public var locale: String?
        public var contentFilter: String?
        public var status: Int
        /// The request target as sent (holds the key).
        public var target: String
    }

    public let server: HTTPTestServer
    public let key: String
    private let lock = NSLock()
    private var listings: [String: (items: [FakeKlipyItem], count: Int)] = [:]
    private var faults: [(query: String?, page: Int?, fault: Fault, left: Int)] = []
    private var log: [Call] = []
    private var media: [UInt8]?
    /// GIFs served for one item's id, before `media`.
    private var mediaByID: [UInt64: [UInt8]] = [:]
    private var claimingMore: Set<String> = []

    /// A fake on a new server on 127.0.0.1, accepting `key`.
    public init(key: String = FakeKlipy.defaultKey) throws {
        self.key = key
        server = try HTTPTestServer()
        listen(forKey: key)
    }

    deinit { server.stop() }

    /// `http://127.0.0.1:<port>`: the value for `--api-url` / `KLIPY_API_URL`.
    public var baseURL: String { server.url("") }

    public func stop() { server.stop() }

    /// Answers calls made with `other` too: 401, the key refused.
    public func refuse(key other: String) { listen(forKey: other) }

    private func listen(forKey key: String) {
        let segment = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key
        for endpoint in ["search", "trending"] {
            server.route("/api/v1/\(segment)/gifs/\(endpoint)") { [unowned self] request in
                respond(endpoint: endpoint, key: key, target: request.target)
            }
        }
    }

    /// The list of `query` (nil: trending) holds `items`, then generated items up to `count`.
    public func set(_ query: String?, items: [FakeKlipyItem] = [], count: Int? = nil) {
        lock.withLock { listings[query ?? ""] = (items, max(count ?? items.count, items.count)) }
    }

    /// Every answer for `query` (nil: trending) says `has_next: true`, past
    /// the end of its list too: empty pages that claim more, for ever.
    public func claimMore(_ query: String?) {
        lock.withLock { _ = claimingMore.insert(query ?? "") }
    }

    /// Items' gif URLs point at this server, which serves `gif` for each.
    public func serveMedia(_ gif: [UInt8]) {
        lock.withLock { media = gif }
    }

    /// Serves `gif` as the media of the item `id` (the others get ``serveMedia(_:)``'s).
    public func serveMedia(_ gif: [UInt8], for id: UInt64) {
        lock.withLock { mediaByID[id] = gif }
    }

    /// The next `times` calls (for `query`, any when nil; page `page`, any when nil) fail with `fault`.
    public func fail(_ fault: Fault, times: Int = 1, query: String? = nil, page: Int? = nil) {
        lock.withLock { faults.append((query, page, fault, times)) }
    }

    /// Forgets every queued fault.
    public func clearFaults() {
        lock.withLock { faults.removeAll() }
    }

    /// Every call, in arrival order.
    public var calls: [Call] { lock.withLock { log } }

    /// The `index`-th (0-based) generated item of `query`'s list: 16-digit ids, some past 2^53.
    public static func generated(_ query: String?, _ index: Int) -> FakeKlipyItem {
        let base: UInt64 = 9_007_199_254_740_993  // 2^53 + 1: a double cannot hold it
        let seed = UInt64(truncatingIfNeeded: (query ?? "trending").utf8.reduce(5381) { ($0 &* 33) &+ Int($1) } & 0xFFFF)
        return FakeKlipyItem(id: base + seed * 1000 + UInt64(index) * 7, title: "\(query ?? "trending") klipy \(index)")
    }

    /// The item at `index` of `query`'s list.
    public func item(_ query: String?, _ index: Int) -> FakeKlipyItem {
        lock.withLock {
            let listing = listings[query ?? ""]
            if let listing, index < listing.items.count { return listing.items[index] }
            return Self.generated(query, index)
        }
    }

    // MARK: Answering

    private func respond(endpoint: String, key given: String, target: String) -> HTTPTestServer.Response {
        let (_, parameters) = FakeGiphy.parse(target: target)
        let query = endpoint == "search" ? (parameters["q"] ?? "") : nil
        let page = parameters["page"].flatMap { Int($0) } ?? 1
        let perPage = min(50, max(1, parameters["per_page"].flatMap { Int($0) } ?? 24))
        func json(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> HTTPTestServer.Response {
            HTTPTestServer.Response(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8))
        }
        var response: HTTPTestServer.Response
        var wait = 0.0
        let fault: Fault? = lock.withLock {
            guard let index = faults.firstIndex(where: { ($0.query == nil || $0.query == query) && ($0.page == nil || $0.page == page) && $0.left > 0 }) else { return nil }
            let fault = faults[index].fault
            if faults[index].left != Int.max { faults[index].left -= 1 }
            if faults[index].left == 0 { faults.remove(at: index) }
            return fault
        }
        if given != key {
            response = json(401, #"{"result":false,"message":"Unauthorized: the API key is invalid"}"#)
        } else if let query, query.trimmingCharacters(in: .whitespaces).isEmpty {
            response = json(422, #"{"result":false,"errors":{"q":["The q field is required."]}}"#)
        } else if case .rateLimited(let retryAfter)? = fault {
            response = json(429, #"{"result":false,"message":"Too Many Attempts."}"#,
                            headers: retryAfter.map { [("Retry-After", String($0))] } ?? [])
        } else if case .unauthorized? = fault {
            response = json(401, #"{"result":false,"message":"Unauthorized"}"#)
        } else if case .serverError(let status)? = fault {
            response = HTTPTestServer.Response(status: status, headers: [("Content-Type", "text/html")],
                                               body: Array("<html><body><h1>\(status)</h1></body></html>\n".utf8))
        } else {
            if case .slow(let seconds)? = fault { wait = seconds }
            let (items, count, gif, claims, byID) = lock.withLock { () -> ([FakeKlipyItem], Int, [UInt8]?, Bool, [UInt64: [UInt8]]) in
                let listing = listings[query ?? ""] ?? ([], 0)
                return (listing.items, listing.count, media, claimingMore.contains(query ?? ""), mediaByID)
            }
            let start = (page - 1) * perPage
            let end = min(start + perPage, count)
            var served: [FakeKlipyItem] = []
            if start < end {
                for index in start..<end { served.append(index < items.count ? items[index] : Self.generated(query, index)) }
            }
            let host = gif == nil ? "https://static.klipy.com" : baseURL
            if let gif {
                for item in served {
                    for (name, hasGIF) in item.sizes where hasGIF {
                        server.route(item.mediaPath(name, "gif"), response: .ok(byID[item.id] ?? gif))
                    }
                }
            }
            let data = served.map { $0.json(host: host, webpHeavier: gif != nil) }.joined(separator: ",")
            response = json(200, "{\"result\":true,\"data\":{\"data\":[\(data)],\"current_page\":\(page),\"per_page\":\(perPage),\"has_next\":\(end < count || claims)}}")
        }
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        if case .stalled(let seconds)? = fault { response = response.delayed(seconds) }
        let call = Call(endpoint: endpoint, key: given, query: query, page: page, perPage: perPage,
                        customerID: parameters["customer_id"], locale: parameters["locale"],
                        contentFilter: parameters["content_filter"], status: response.status, target: target)
        lock.withLock { log.append(call) }
        return response
    }
}
