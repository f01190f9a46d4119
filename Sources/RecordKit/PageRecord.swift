/// The `page` record's kind and field names: one page request, written by
/// `giphy-pages plan` and read by `giphy-pages list`.
///
/// ```json
/// {"kind":"page","endpoint":"search","query":"spiders","section":"spiders",
///  "offset":0,"limit":50,"rating":"g","lang":"en","total":4210}
/// ```
///
/// Its reader and writer are GiphyKit's `PageRequest`: a page's paging is
/// read and written by the API that serves it (Giphy's offsets, Klipy's
/// numbered pages), so the type that knows the APIs owns them; the names are
/// spelled here, where a later stage finds them too.
public enum PageRecord {
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
}
