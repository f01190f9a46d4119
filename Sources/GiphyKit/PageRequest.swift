import FetchKit
import Foundation
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
    public static let fields: Set<String> = ["kind", "endpoint", "query", "section", "offset", "limit", "rating", "lang", "total"]
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

    /// A page request.
    public init(endpoint: GiphyEndpoint, query: String?, section: String, offset: Int, limit: Int,
                rating: String, lang: String, total: Int?) {
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
        guard let name = record.string("endpoint") ?? (record.has("query") ? "search" : nil),
              let endpoint = GiphyEndpoint(rawValue: name) else {
            throw PageError("a page record needs \"endpoint\": \"search\" or \"trending\"")
        }
        let query = record.string("query")
        if endpoint == .search {
            guard let query, !query.isEmpty else { throw PageError("a search page record needs a non-empty string \"query\"") }
            guard query.count <= Self.maxQueryLength else {
                throw PageError("the query is \(query.count) characters; Giphy takes at most \(Self.maxQueryLength)")
            }
        }
        guard let offset = record.int("offset"), offset >= 0 else { throw PageError("a page record needs \"offset\" ≥ 0") }
        guard let limit = record.int("limit"), (1...100).contains(limit) else { throw PageError("a page record needs \"limit\" from 1 to 100") }
        self.init(endpoint: endpoint, query: endpoint == .search ? query : nil,
                  section: record.string("section") ?? query ?? endpoint.rawValue,
                  offset: offset, limit: limit,
                  rating: record.string("rating") ?? "g", lang: record.string("lang") ?? "en",
                  total: record.int("total"))
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
    public var isPastOffsetCap: Bool { offset > endpoint.offsetCap }

    /// The key that groups pages of one result list (for totals and follow).
    public var listKey: String { "\(endpoint.rawValue)\u{0}\(query ?? "")\u{0}\(rating)\u{0}\(lang)" }

    static func trimmed(_ base: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Percent-encodes everything but the unreserved characters (UTF-8 first).
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
