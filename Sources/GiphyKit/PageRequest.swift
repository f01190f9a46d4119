import FetchKit
import FoundationEssentials
import Glibc
import SposureKit

/// A Giphy endpoint that serves pages of GIFs.
public enum GiphyEndpoint: String, Sendable, CaseIterable {
    /// `/v1/gifs/search`: GIFs for a query.
    case search
    /// `/v1/gifs/trending`: what is popular now.
    case trending

    /// The largest offset the API serves; past it a page is empty.
    public var offsetCap: Int {
        switch self {
        case .search: return 4999
        case .trending: return 499
        }
    }
}

/// One page request: the `page` record of the stream.
///
/// ```json
/// {"kind":"page","endpoint":"search","query":"spiders","section":"spiders",
///  "offset":0,"limit":50,"rating":"g","lang":"en","total":4210}
/// ```
public struct PageRequest: Sendable, Equatable {
    /// The fields a page record owns; any other field is carried on to its GIFs.
    public static let fields: Set<String> = ["kind", "provider", "endpoint", "query", "section", "page", "per_page",
                                             "offset", "limit", "rating", "lang", "total"]
    /// The longest query the API accepts (longer ones get 414).
    public static let maxQueryLength = 50

    public var endpoint: GiphyEndpoint
    /// The search words; nil for trending.
    public var query: String?
    /// The carousel this page belongs to (the query, or "trending").
    public var section: String
    public var offset: Int
    public var limit: Int
    public var rating: String
    public var lang: String
    /// `pagination.total_count` as last learned, when known.
    public var total: Int?
    /// The API asked.
    public var provider: GIFProvider
    /// Klipy's page number (from 1) and page size: its pages are numbered, not
    /// offset, and `limit` is then how many results of the page are kept.
    public var page: Int?
    public var perPage: Int?

    /// A page request.
    public init(endpoint: GiphyEndpoint, query: String?, section: String, offset: Int, limit: Int,
                rating: String, lang: String, total: Int?, provider: GIFProvider = .giphy,
                page: Int? = nil, perPage: Int? = nil) {
        self.provider = provider
        self.page = page
        self.perPage = perPage
        self.endpoint = endpoint
        self.query = query
        self.section = section
        self.offset = offset
        self.limit = limit
        self.rating = rating
        self.lang = lang
        self.total = total
    }

    /// Reads a page record; throws a message when a field is missing or wrong.
    public init(record: JSONRecord) throws(PageError) {
        var provider = GIFProvider.giphy
        if record.has("provider") {
            guard let name = record.string("provider"), let named = GIFProvider(rawValue: name) else {
                throw PageError("\"provider\" must be \"giphy\" or \"klipy\"")
            }
            provider = named
        }
        guard let name = record.string("endpoint") ?? (record.has("query") ? "search" : nil),
              let endpoint = GiphyEndpoint(rawValue: name) else {
            throw PageError("a page record needs \"endpoint\": \"search\" or \"trending\"")
        }
        let query = record.string("query")
        if endpoint == .search {
            guard let query, !query.trimmingWhitespace().isEmpty else {
                throw PageError("a search page record needs a non-empty string \"query\"")
            }
            guard provider != .giphy || query.count <= Self.maxQueryLength else {
                throw PageError("the query is \(query.count) characters; Giphy takes at most \(Self.maxQueryLength)")
            }
        }
        let section = record.string("section") ?? query ?? endpoint.rawValue
        let rating = record.string("rating") ?? "g", lang = record.string("lang") ?? "en"
        if provider == .klipy {
            // Bounded, so that (page - 1) × per_page and the ranks after it cannot overflow.
            let page = try Self.whole(record, "page", in: 1...Self.maxKlipyPage, rule: "from 1 to \(Self.maxKlipyPage)",
                                      record: "a Klipy page record")
            let perPage = try Self.whole(record, "per_page", in: 1...GIFProvider.klipy.maxLimit,
                                         rule: "from 1 to \(GIFProvider.klipy.maxLimit)", record: "a Klipy page record")
            let limit = record.has("limit") ? record.int("limit") : perPage
            guard let limit, (1...perPage).contains(limit) else { throw PageError("a Klipy page record's \"limit\" must be from 1 to its per_page") }
            let offset = (page - 1) * perPage
            if record.has("offset") && record.int("offset") != offset {
                throw PageError("a Klipy page record's \"offset\" must be (page - 1) × per_page = \(offset)")
            }
            self.init(endpoint: endpoint, query: endpoint == .search ? query : nil, section: section, offset: offset,
                      limit: limit, rating: rating, lang: lang, total: nil, provider: .klipy, page: page, perPage: perPage)
            return
        }
        let offset = try Self.whole(record, "offset", in: 0...Int.max, rule: "≥ 0", record: "a page record")
        let limit = try Self.whole(record, "limit", in: 1...100, rule: "from 1 to 100", record: "a page record")
        self.init(endpoint: endpoint, query: endpoint == .search ? query : nil, section: section,
                  offset: offset, limit: limit, rating: rating, lang: lang, total: record.int("total"))
    }

    /// The highest Klipy page number taken (a million GIFs at 50 a page is far past any list).
    public static let maxKlipyPage = 1_000_000

    /// The whole number at `key` within `range`, or the error that says what
    /// is there instead: absent, not a number (`"0"` is a string), or out of range.
    private static func whole(_ page: JSONRecord, _ key: String, in range: ClosedRange<Int>, rule: String,
                              record: String) throws(PageError) -> Int {
        guard page.has(key) else { throw PageError("\(record) needs \"\(key)\" (a whole number \(rule))") }
        guard let value = page.int(key) else {
            let shown = page.string(key).map { ", not a string (\"\(RemoteText.clean($0, limit: 20))\")" } ?? ""
            throw PageError("\(record)'s \"\(key)\" must be a whole number \(rule)\(shown)")
        }
        guard range.contains(value) else { throw PageError("\(record) needs \"\(key)\" \(rule), not \(value)") }
        return value
    }

    /// Why a record is not a page request.
    public struct PageError: Error, CustomStringConvertible, Sendable {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The page record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "page")
        if provider == .klipy {
            // Giphy's pages carry no provider: absent means giphy, as before there were two.
            record.set("provider", provider.rawValue)
            record.set("endpoint", endpoint.rawValue)
            if let query { record.set("query", query) }
            record.set("section", section)
            record.set("page", page ?? 1)
            record.set("per_page", perPage ?? limit)
            record.set("offset", offset)
            record.set("limit", limit)
            record.set("rating", rating)
            record.set("lang", lang)
            return record
        }
        record.set("endpoint", endpoint.rawValue)
        if let query { record.set("query", query) }
        record.set("section", section)
        record.set("offset", offset)
        record.set("limit", limit)
        record.set("rating", rating)
        record.set("lang", lang)
        record.set("total", total)
        return record
    }

    /// The request URL. It holds the key: never print it, use ``displayURL(base:)``.
    public func url(base: String, key: String) -> String {
        var items = ["api_key=\(Self.escape(key))"]
        if let query { items.append("q=\(Self.escape(query))") }
        items += ["limit=\(limit)", "offset=\(offset)", "rating=\(Self.escape(rating))", "lang=\(Self.escape(lang))"]
        return "\(Self.trimmed(base))/v1/gifs/\(endpoint.rawValue)?\(items.joined(separator: "&"))"
    }

    /// The request URL with the key hidden, for messages.
    public func displayURL(base: String) -> String {
        redactedURL(url(base: base, key: "REDACTED"))
    }

    /// Whether this page asks for results past the API's offset cap.
    public var isPastOffsetCap: Bool { provider == .giphy && offset > endpoint.offsetCap }

    /// The key that groups pages of one result list (for totals and follow).
    public var listKey: String {
        "\(provider.rawValue)\u{0}\(endpoint.rawValue)\u{0}\(query ?? "")\u{0}\(rating)\u{0}\(lang)\u{0}\(perPage ?? 0)"
    }

    static func trimmed(_ base: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Percent-encodes everything but the unreserved characters (UTF-8 first).
    public static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E:  // A-Z a-z 0-9 - . _ ~
                bytes.append(byte)
            default:
                bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
