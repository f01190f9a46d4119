import SposureKit

/// What differs between the APIs once an answer is in: how it is read, which
/// of its results a page keeps, how a GIF is named across providers, and how
/// a result becomes a `gif` record. The page lister asks these rather than
/// branching on the provider.
extension GIFProvider {
    /// Reads an answer: its HTTP `status` and `body`; `url` (already redacted) for messages.
    public func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        switch self {
        case .giphy: return GiphyResponse.interpret(status: status, body: body, url: url)
        case .klipy: return KlipyAPI.interpret(status: status, body: body, url: url)
        }
    }

    /// The results of an answer that `page` keeps: all of Giphy's; the first
    /// `limit` of Klipy's (a Klipy page asks a whole page: its numbering depends on it).
    public func kept(_ items: [JSONRecord], page: PageRequest) -> ArraySlice<JSONRecord> {
        switch self {
        case .giphy: return items[...]
        case .klipy: return items.prefix(page.limit)
        }
    }

    /// The GIF's name across providers (`giphy:ID`, `klipy:ID`), as ratings
    /// and repeats know it; nil when the result has no usable id.
    public func gifKey(of item: JSONRecord) -> String? {
        let id: String?
        switch self {
        case .giphy: id = item.string("id")
        case .klipy: id = KlipyAPI.id(of: item)
        }
        return id.map { rawValue + ":" + $0 }
    }

    /// The renditions (Giphy) or sizes (Klipy) of `configuration` to pick from, in order.
    public func choices(_ configuration: ListConfiguration) -> [String] {
        switch self {
        case .giphy: return configuration.renditions
        case .klipy: return configuration.klipySizes
        }
    }

    /// The `gif` record of `item`, the `index`-th result of `page`, in the
    /// first of `choices` it has; fields of `pageRecord` that a page does not
    /// own are carried on.
    public func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                     choices: [String]) -> Result<JSONRecord, GIFRecord.Problem> {
        switch self {
        case .giphy: return GIFRecord.make(item: item, index: index, page: page, pageRecord: pageRecord, renditions: choices)
        case .klipy: return KlipyAPI.make(item: item, index: index, page: page, pageRecord: pageRecord, sizes: choices)
        }
    }
}
