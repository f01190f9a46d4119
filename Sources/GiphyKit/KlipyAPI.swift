import NetKit
import RecordKit
import SposureKit

/// Klipy's GIF API, as its public clients use it: the URL of a page, the
/// reading of an answer, and the `gif` record of an item.
///
/// ```
/// GET {base}/api/v1/{KEY}/gifs/search?q=…&page=N&per_page=N&customer_id=…&locale=…&content_filter=…
/// GET {base}/api/v1/{KEY}/gifs/trending?page=N&per_page=N&customer_id=…&locale=…&content_filter=…
/// {"result":true,"data":{"data":[ITEM…],"current_page":N,"per_page":N,"has_next":true|false}}
/// ```
///
/// The key is a path segment, so every URL shown goes through ``redactedPath(_:)``.
public struct KlipyAPI: GIFAPI {
    /// Whether a size's WebP is taken where Klipy says it weighs less than its GIF (`list --formats gif,webp`).
    public var webp: Bool

    /// Klipy; with `webp`, a size's WebP where it is smaller.
    public init(webp: Bool = false) { self.webp = webp }

    public var name: String { "klipy" }
    public var displayName: String { "Klipy" }
    public var keyVariable: String { "KLIPY_API_KEY" }
    public var urlVariable: String { "KLIPY_API_URL" }
    public var defaultBase: String { "https://api.klipy.com" }
    public var keyHelp: String {
        "free at https://klipy.com (sign up as a developer and make an API key; about 100 calls a day until the app is approved)"
    }
    public var keyAdvice: String { "Get a key \(keyHelp)" }
    /// A new key's 100 calls a day.
    public var defaultRate: (calls: Int, period: Double) { (100, 86400) }
    /// Its `per_page`.
    public var maxLimit: Int { 50 }
    public var maxQueryLength: Int? { nil }
    /// Klipy says no count: pages are numbered, and `has_next` ends a list.
    public var countsResults: Bool { false }
    public var usesCustomerID: Bool { true }
    public var renditions: [String] { Self.sizes }
    /// About 220 px, the closest to Giphy's `fixed_height`.
    public var defaultRendition: String { "sm" }

    /// Klipy's sizes, largest first: `hd`, `md`, `sm` (about 220 px, the
    /// closest to Giphy's `fixed_height`) and `xs`.
    public static let sizes = ["hd", "md", "sm", "xs"]

    /// The highest page number taken (a million GIFs at 50 a page is far past any list).
    public static let maxPage = 1_000_000

    /// `size`, then the other sizes by how close they are to it (the next
    /// larger first): sm → md, xs, hd.
    public func chain(for size: String) -> [String] { Self.chain(for: size) }

    /// `size`, then the other sizes by how close they are to it.
    public static func chain(for size: String) -> [String] {
        let sizes = Self.sizes
        guard let index = sizes.firstIndex(of: size) else { return chain(for: "sm") }
        var chain = [size]
        for distance in 1..<sizes.count {
            if index - distance >= 0 { chain.append(sizes[index - distance]) }
            if index + distance < sizes.count { chain.append(sizes[index + distance]) }
        }
        return chain
    }

    /// Giphy's `--rating` as Klipy's `content_filter`: g high, pg medium, pg-13 low, r off.
    public static func contentFilter(rating: String) -> String {
        switch rating {
        case "r": return "off"
        case "pg-13": return "low"
        case "pg": return "medium"
        default: return "high"
        }
    }

    // MARK: Pages

    /// No cap is known: `has_next` says where a list ends.
    public func offsetCap(for endpoint: GiphyEndpoint) -> Int? { nil }

    /// Numbered from 1, `limit` results each (the page size fixes the
    /// numbering, so the last page asks a whole page and its `limit` says how
    /// many to keep), up to `maxResults` (nil: ten pages). Klipy says no
    /// total: the lister stops asking once a page says `has_next: false`.
    public func pages(endpoint: GiphyEndpoint, query: String?, section: String, total: Int?, limit perPage: Int,
                      maxResults: Int?, rating: String, lang: String) -> [PageRequest] {
        let maxResults = maxResults ?? perPage * Self.defaultPages
        var pages: [PageRequest] = []
        var offset = 0
        while offset < maxResults {
            pages.append(PageRequest(endpoint: endpoint, query: query, section: section, offset: offset,
                                     limit: min(perPage, maxResults - offset), rating: rating, lang: lang, total: nil,
                                     provider: GIFProvider(rawValue: name) ?? .recordDefault, page: pages.count + 1, perPage: perPage))
            offset += perPage
        }
        return pages
    }

    /// Pages planned without `--max-results`.
    public static let defaultPages = 10

    public func readPaging(_ record: JSONRecord, into page: inout PageRequest) throws(PageRequest.PageError) {
        // Bounded, so that (page - 1) × per_page and the ranks after it cannot overflow.
        let number = try PageRequest.whole(record, PageRequest.Field.page, in: 1...Self.maxPage, rule: "from 1 to \(Self.maxPage)",
                                           record: "a Klipy page record")
        let perPage = try PageRequest.whole(record, PageRequest.Field.perPage, in: 1...maxLimit, rule: "from 1 to \(maxLimit)",
                                            record: "a Klipy page record")
        let limit = record.has(PageRequest.Field.limit) ? record.int(PageRequest.Field.limit) : perPage
        guard let limit, (1...perPage).contains(limit) else { throw PageRequest.PageError("a Klipy page record's \"limit\" must be from 1 to its per_page") }
        let offset = (number - 1) * perPage
        if record.has(PageRequest.Field.offset) && record.int(PageRequest.Field.offset) != offset {
            throw PageRequest.PageError("a Klipy page record's \"offset\" must be (page - 1) × per_page = \(offset)")
        }
        page.page = number
        page.perPage = perPage
        page.offset = offset
        page.limit = limit
        page.total = nil
    }

    public func record(of page: PageRequest) -> JSONRecord {
        PageRecord(provider: name, endpoint: page.endpoint.rawValue, query: page.query, section: page.section,
                   paging: .numbered(page: page.page ?? 1, perPage: page.perPage ?? page.limit, offset: page.offset, limit: page.limit),
                   rating: page.rating, lang: page.lang).record()
    }

    // MARK: URLs

    /// The URL of `page`, with `key` as its path segment.
    public func url(_ page: PageRequest, base: String, key: String, customerID: String) -> String {
        var items: [String] = []
        if let query = page.query { items.append("q=\(PageRequest.escape(query))") }
        items += ["page=\(page.page ?? 1)", "per_page=\(page.perPage ?? page.limit)"]
        if !customerID.isEmpty { items.append("customer_id=\(PageRequest.escape(customerID))") }
        items += ["locale=\(PageRequest.escape(page.lang))", "content_filter=\(Self.contentFilter(rating: page.rating))"]
        return "\(base)/api/v1/\(PageRequest.escape(key))/gifs/\(page.endpoint.rawValue)?\(items.joined(separator: "&"))"
    }

    /// The customer id is no secret, but a stable id of this install: it
    /// stays out of messages, records and the cache's names too.
    public func displayURL(_ page: PageRequest, base: String, hasCustomerID: Bool) -> String {
        url(page, base: base, key: "REDACTED", customerID: hasCustomerID ? "REDACTED" : "")
    }

    /// The segment after every `/api/v1/` masked (``redactedPath(_:)``).
    public func masked(_ text: String) -> String { Self.redactedPath(text) }

    /// `text` with the segment after every `/api/v1/` masked: where Klipy's key goes.
    public static func redactedPath(_ text: String) -> String {
        // Bytes, not characters: a combining mark after a `/` makes it part of
        // another character, and the segment would go unmasked.
        var result: [UInt8] = []
        var rest = Array(text.utf8)[...]
        let marker = Array("/api/v1/".utf8)
        while let range = rest.firstRange(of: marker) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { [0x2F, 0x3F, 0x20, 0x22, 0x23].contains($0) } ?? rest.endIndex  // / ? space " #
            if end != rest.startIndex { result += Array("REDACTED".utf8) }
            rest = rest[end...]
        }
        return String(decoding: result + rest, as: UTF8.self)
    }

    // MARK: Answers

    /// Reads an answer: its HTTP `status` and `body`; `url` (already redacted) for messages.
    public func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        let parsed = GiphyResponse.read(body)
        let message = (try? parsed.get().record).flatMap(message(of:))
        let said = message.map { ": \($0)" } ?? ""
        switch status {
        case 200..<300: break
        case 401, 403: return .unauthorized(message ?? "HTTP \(status)")
        default:
            var failure = FetchFailure.http(status, url: url)
            failure.message += said
            return .failure(failure)
        }
        let (json, outOfRange): (JSONRecord, [String])
        switch parsed {
        case .success(let read): (json, outOfRange) = read
        case .failure(let error): return .failure(GiphyResponse.unreadable(status: status, body: body, url: url, error))
        }
        if json.bool("result") == false {
            let lower = (message ?? "").lowercased()
            if lower.contains("key") || lower.contains("unauthorized") || lower.contains("forbidden") {
                return .unauthorized(message ?? "refused")
            }
            return .failure(FetchFailure("bad_response", "the API said \"\(message ?? "result: false")\" for \(url)"))
        }
        guard let data = json.object("data"), let items = data.objects("data") else {
            return .failure(FetchFailure("bad_response", "the API answer has no \"data\".\"data\" array for \(url)", transient: true))
        }
        var page = GiphyResponse.Page(items: items, totalCount: nil, offset: nil, hasNext: data.bool("has_next"))
        page.outOfRange = outOfRange
        return .page(page)
    }

    /// The message of an error answer, in the shapes Klipy uses.
    private func message(of json: JSONRecord) -> String? {
        if let text = json.string("message") { return text }
        if let errors = json.object("errors") {
            // Validation errors: a string, else whatever JSON it is, as written.
            return errors.string("message") ?? errors.jsonText("message")
        }
        return nil
    }

    /// The first `limit` results: a Klipy page asks a whole page (its numbering depends on it).
    public func kept(_ items: [JSONRecord], page: PageRequest) -> ArraySlice<JSONRecord> { items.prefix(page.limit) }

    /// An item's id as the exact decimal string (ids of 16 digits pass 2^53: never a double).
    public func id(of item: JSONRecord) -> String? {
        if item.has("id") && item.string("id") == nil {
            // The number as written back from jansson's 64-bit integer: exact,
            // where a double would round ids past 2^53. A real is refused.
            guard let text = item.jsonText("id") else { return nil }
            return !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }) ? text : nil
        }
        if let text = item.string("id"), !text.isEmpty { return text }
        return nil
    }

    /// Its title, slug and tags. Klipy's answers name no creator (its
    /// public clients read none), so nobody but Klipy is credited.
    public func text(of item: JSONRecord) -> ResultText {
        ResultText(title: item.string("title") ?? "", slug: ResultText.slug(item.string("slug"), id: id(of: item)),
                   tags: item.stringElements("tags", limit: ResultText.maxTags))
    }

    /// The `gif` record for `item`, the `index`-th result of `page`, in the
    /// first size of `choices` that has a `gif`; fields of `pageRecord` that a
    /// page does not own are carried on, after the GIF's own.
    public func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                     choices sizes: [String]) -> Result<JSONRecord, GIFRecord.Problem> {
        guard let id = id(of: item) else {
            return .failure(GIFRecord.Problem(code: "bad_item", message: "a result has no integer or string \"id\"\(GIFRecord.found(item, "id"))", id: nil))
        }
        let file = item.object("file")
        guard let (size, gif) = sizes.lazy.compactMap({ size in
            file?.object(size)?.object("gif").flatMap { GIFRecord.usable($0) ? (size, $0) : nil }
        }).first, let url = gif.string("url") else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "GIF \(id) has a gif in none of the sizes \(sizes.joined(separator: ", "))", id: id))
        }
        var chosen = GIFRecord.Rendition(name: size, url: url, width: gif.lenientInt("width"), height: gif.lenientInt("height"),
                                         frames: nil, size: gif.lenientInt("size"), cacheKey: "\(name):\(id):\(size)")
        // The same size as WebP, where Klipy says it weighs less.
        let other = file?.object(size)?.object("webp")
        let lighter = webp ? WebPChoice.lighter(url: other?.string("url"), size: other?.lenientInt("size"), than: chosen) : nil
        if let lighter { chosen = lighter }
        let record = GIFRecord(provider: page.provider, id: id, title: item.string("title") ?? "", page: page, index: index, chosen: chosen)
        return .success(WebPChoice.typed(record.record(carrying: pageRecord), webp: lighter != nil))
    }
}
