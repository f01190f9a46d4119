import RecordKit
import SposureKit

// What only the lister knows of a `gif` record: how it is made of one
// result of an API's answer, and why a result cannot become one.
extension GIFRecord {
    /// The record of the `index`-th result of `page`, from `provider`.
    public init(provider: GIFProvider, id: String?, title: String, creator: String? = nil, page: PageRequest, index: Int,
                chosen: Rendition?) {
        self.init(provider: provider == .recordDefault ? nil : provider.rawValue, id: id, title: Self.cleanTitle(title),
                  creator: creator.map(Self.cleanTitle).flatMap { $0.isEmpty ? nil : $0 }, query: page.query,
                  section: page.section, rank: page.offset + index, chosen: chosen)
    }

    /// Why a result cannot become a record.
    public struct Problem: Error, Sendable {
        /// The error code (`no_rendition`, `bad_item`).
        public var code: String
        public var message: String
        /// The GIF's id, when it has one.
        public var id: String?

        /// A problem of `code`.
        public init(code: String, message: String, id: String?) {
            self.code = code
            self.message = message
            self.id = id
        }
    }

    /// What `item` holds at `key` instead of what was wanted, for a
    /// problem's message: ": its "id" is 1e+20 (a number past 64-bit
    /// integers)"; "" when it holds nothing there.
    public static func found(_ item: JSONRecord, _ key: String) -> String {
        guard let text = item.jsonText(key) else { return "" }
        let past = item.double(key).map { $0.magnitude >= 0x1p63 } == true ? " (a number past 64-bit integers)" : ""
        return ": its \"\(key)\" is \(RemoteText.clean(text, limit: 40))\(past)"
    }

    /// A rendition is usable when it has a URL whose path ends in `.gif`.
    public static func usable(_ rendition: JSONRecord) -> Bool {
        guard let url = rendition.string("url"), !url.isEmpty else { return false }
        let path = url.split(separator: "?", maxSplits: 1).first ?? ""
        return path.lowercased().hasSuffix(".gif")
    }

    /// A title with terminal escape sequences and control characters removed
    /// (remote text reaches terminals), white space folded, the length capped.
    public static func cleanTitle(_ title: String) -> String {
        String(RemoteText.strip(title).prefix(200))
    }
}
