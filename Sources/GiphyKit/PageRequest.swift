import NetKit
import RecordKit
import LadderKit
import FoundationEssentials
import Glibc
import SposureKit

/// An endpoint that serves pages of GIFs (every API has these two).
public enum GiphyEndpoint: String, Sendable, CaseIterable {
    /// `/v1/gifs/search`: GIFs for a query.
    case search
    /// `/v1/gifs/trending`: what is popular now.
    case trending
}

/// One page request: the `page` record of the stream.
///
/// ```json
/// {"kind":"page","endpoint":"search","query":"spiders","section":"spiders",
///  "offset":0,"limit":50,"rating":"g","lang":"en","total":4210}
/// ```
public struct PageRequest: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = PageRecord.kind
    /// The field names, spelled once (RecordKit's).
    public typealias Field = PageRecord.Field
    /// The fields a page record owns; any other field is carried on to its GIFs.
    public static let fields = PageRecord.fields

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
    /// Words whose results `list` leaves out (`avoid`: the ladder's and the rung's, `plan --avoid`).
    public var avoid = AvoidList()
    /// Rounds back whose GIFs `list` puts last (`fresh_rounds`, a ladder's rule); nil: list's own.
    public var freshRounds: Int?

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

    /// Reads a page record; throws a message when a field is missing or
    /// wrong. The fields every API shares are read here, the paging by the
    /// record's API (``GIFAPI/readPaging(_:into:)``).
    public init(record: JSONRecord) throws(PageError) {
        var provider = GIFProvider.recordDefault
        if record.has(Field.provider) {
            guard let name = record.string(Field.provider), let named = GIFProvider(rawValue: name) else {
                throw PageError("\"provider\" must be \(GIFProvider.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))")
            }
            provider = named
        }
        let api = provider.api
        guard let name = record.string(Field.endpoint) ?? (record.has(Field.query) ? "search" : nil),
              let endpoint = GiphyEndpoint(rawValue: name) else {
            throw PageError("a page record needs \"endpoint\": \"search\" or \"trending\"")
        }
        let query = record.string(Field.query)
        if endpoint == .search {
            guard let query, !query.trimmingWhitespace().isEmpty else {
                throw PageError("a search page record needs a non-empty string \"query\"")
            }
            if let longest = api.maxQueryLength, query.count > longest {
                throw PageError("the query is \(query.count) characters; \(api.displayName) takes at most \(longest)")
            }
        }
        let section = record.string(Field.section) ?? query ?? endpoint.rawValue
        self.init(endpoint: endpoint, query: endpoint == .search ? query : nil, section: section, offset: 0, limit: 1,
                  rating: record.string(Field.rating) ?? "g", lang: record.string(Field.lang) ?? "en", total: nil, provider: provider)
        try api.readPaging(record, into: &self)
        if record.has(Field.avoid) {
            guard let entries = record.strings(Field.avoid), entries.count <= AvoidList.maxEntries else {
                throw PageError("a page record's \"avoid\" must be an array of at most \(AvoidList.maxEntries) words or phrases")
            }
            for entry in entries {
                if let problem = AvoidList.problem(entry) { throw PageError("a page record's \"avoid\": \(problem)") }
            }
            avoid = AvoidList(entries)
        }
        if record.has(Field.freshRounds) {
            freshRounds = try Self.whole(record, Field.freshRounds, in: 0...50, rule: "from 0 to 50", record: "a page record")
        }
    }

    /// Writes what `list` is to do with the page's results (`avoid`, `fresh_rounds`) into its record.
    public func writeListing(to record: JSONRecord) {
        if !avoid.isEmpty { record.set(Field.avoid, strings: avoid.entries) }
        if let freshRounds { record.set(Field.freshRounds, freshRounds) }
    }

    /// The whole number at `key` within `range`, or the error that says what
    /// is there instead: absent, not a number (`"0"` is a string), or out of range.
    public static func whole(_ page: JSONRecord, _ key: String, in range: ClosedRange<Int>, rule: String,
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
        public init(_ description: String) { self.description = description }
    }

    /// The page record, as its API writes it.
    public func record() -> JSONRecord { provider.api.record(of: self) }

    /// The largest offset this page's endpoint serves; nil: no cap.
    public var offsetCap: Int? { provider.api.offsetCap(for: endpoint) }

    /// Whether this page asks for results past the API's offset cap.
    public var isPastOffsetCap: Bool { offsetCap.map { offset > $0 } ?? false }

    /// The key that groups pages of one result list (for totals and follow).
    public var listKey: String {
        "\(provider.rawValue)\u{0}\(endpoint.rawValue)\u{0}\(query ?? "")\u{0}\(rating)\u{0}\(lang)\u{0}\(perPage ?? 0)"
    }

    public static func trimmed(_ base: String) -> String {
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
