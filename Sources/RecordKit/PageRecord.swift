import SposureKit

/// The `page` record: one page request, written by
/// `giphy-pages plan` and read by `giphy-pages list`.
///
/// ```json
/// {"kind":"page","endpoint":"search","query":"spiders","section":"spiders",
///  "offset":0,"limit":50,"rating":"g","lang":"en","total":4210}
/// ```
///
/// It writes the record (each API's `record(of:)` makes one of these). Its
/// reader is still GiphyKit's `PageRequest`: what makes a page valid (a
/// query's length, the page size, the error messages) is each API's.
public struct PageRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "page"

    /// The field names, spelled once.
    public enum Field {
        public static let kind = "kind", provider = "provider", endpoint = "endpoint", query = "query", section = "section"
        public static let page = "page", perPage = "per_page", offset = "offset", limit = "limit"
        public static let rating = "rating", lang = "lang", total = "total"
        /// What `list` is to do with the page's results: leave out these words, put GIFs seen lately last.
        public static let avoid = "avoid", freshRounds = "fresh_rounds"
    }

    /// The fields a page record owns; any other field is carried on to its GIFs.
    public static let fields: Set<String> = [Field.kind, Field.provider, Field.endpoint, Field.query, Field.section, Field.page,
                                             Field.perPage, Field.offset, Field.limit, Field.rating, Field.lang, Field.total,
                                             Field.avoid, Field.freshRounds]

    /// How a page says which results it asks for: each API has its own.
    public enum Paging: Sendable, Equatable {
        /// Giphy: from `offset`, `limit` results; `total` as learned (null: unknown).
        case offset(offset: Int, limit: Int, total: Int?)
        /// Klipy: page `page` (from 1) of `perPage`; `offset` its first rank, `limit` results kept.
        case numbered(page: Int, perPage: Int, offset: Int, limit: Int)
        /// Wikimedia Commons: from `offset`, `limit` results, no count asked.
        case uncounted(offset: Int, limit: Int)
    }

    /// The API's name; nil for Giphy, whose pages never carry one.
    public var provider: String?
    /// `search` or `trending`.
    public var endpoint: String
    /// The search words; nil for trending.
    public var query: String?
    public var section: String
    public var paging: Paging
    public var rating: String, lang: String

    /// A page record's values.
    public init(provider: String?, endpoint: String, query: String?, section: String, paging: Paging, rating: String, lang: String) {
        (self.provider, self.endpoint, self.query, self.section) = (provider, endpoint, query, section)
        (self.paging, self.rating, self.lang) = (paging, rating, lang)
    }

    /// The record: `kind`, `provider` (when set), `endpoint`, `query` (when
    /// set), `section`, the paging, `rating`, `lang`, then Giphy's `total`.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([(Field.kind, Self.kind), (Field.provider, provider.omittedWhenNil), (Field.endpoint, endpoint),
                    (Field.query, query.omittedWhenNil), (Field.section, section)])
        switch paging {
        case .offset(let offset, let limit, let total):
            record.set([(Field.offset, offset), (Field.limit, limit), (Field.rating, rating), (Field.lang, lang), (Field.total, total)])
        case .numbered(let page, let perPage, let offset, let limit):
            record.set([(Field.page, page), (Field.perPage, perPage), (Field.offset, offset), (Field.limit, limit),
                        (Field.rating, rating), (Field.lang, lang)])
        case .uncounted(let offset, let limit):
            record.set([(Field.offset, offset), (Field.limit, limit), (Field.rating, rating), (Field.lang, lang)])
        }
        return record
    }
}
