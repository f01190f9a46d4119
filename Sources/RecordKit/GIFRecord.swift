import SposureKit

/// The `gif` record of the stream: one result of a page, whatever API it came
/// from, in the rendition chosen. The one type that writes it (the APIs and
/// the lister's error records alike) and reads it back; GiphyKit makes one of
/// an API's answer (`GIFRecord+API.swift`).
///
/// ```json
/// {"kind":"gif","id":"3o7TKSjRrfIPjeiVyM","title":"…","creator":"…","query":"spiders","section":"spiders",
///  "rank":0,"rendition":"fixed_height","url":"https://media…/200.gif?cid=…","width":356,
///  "height":200,"frames":24,"size":512345,"cache_key":"giphy:3o7TKSjRrfIPjeiVyM:fixed_height"}
/// ```
public struct GIFRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "gif"

    /// The field names, spelled once.
    public enum Field {
        public static let kind = "kind", provider = "provider", id = "id", title = "title", creator = "creator", query = "query", section = "section"
        public static let rank = "rank", rendition = "rendition", url = "url", width = "width", height = "height"
        public static let frames = "frames", size = "size", cacheKey = "cache_key", mime = "mime"
        /// A Wikimedia Commons file's credit, which its licence asks to be shown.
        public static let author = "author", license = "license", licenseURL = "license_url", pageURL = "page_url"
    }

    /// The API's name; nil for the provider a record names by saying none (Giphy).
    public var provider: String?
    /// The GIF's id; nil only on the error record of a result without one.
    public var id: String?
    /// The title, cleaned of terminal escapes (GiphyKit's `cleanTitle`).
    public var title: String
    /// Who made it, as the API credits them (cleaned like the title); nil when the API names nobody.
    public var creator: String?
    /// The search words of its page; nil for trending.
    public var query: String?
    /// The carousel of its page.
    public var section: String
    /// Its place in the whole result list, from 0.
    public var rank: Int
    /// The rendition chosen; nil on the error record of a result without a usable one.
    public var chosen: Rendition?

    /// A rendition: which, where, and what the API says of it.
    public struct Rendition: Sendable, Equatable {
        /// Its name in the API (`fixed_height`, `sm`).
        public var name: String
        public var url: String
        public var width: Int?
        public var height: Int?
        /// Frames, when the API says.
        public var frames: Int?
        /// Bytes, when the API says.
        public var size: Int?
        /// `provider:id:rendition`: the same GIF whatever its URL's parameters.
        public var cacheKey: String

        /// A rendition.
        public init(name: String, url: String, width: Int?, height: Int?, frames: Int?, size: Int?, cacheKey: String) {
            self.name = name
            self.url = url
            self.width = width
            self.height = height
            self.frames = frames
            self.size = size
            self.cacheKey = cacheKey
        }
    }

    /// A record of these fields (a title and creator as given: the APIs clean them).
    public init(provider: String?, id: String?, title: String, creator: String?, query: String?, section: String, rank: Int,
                chosen: Rendition?) {
        (self.provider, self.id, self.title, self.creator) = (provider, id, title, creator)
        (self.query, self.section, self.rank, self.chosen) = (query, section, rank, chosen)
    }

    /// Reads a `gif` record; nil when a field this type writes is missing or of another type.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let section = record.string(Field.section), let rank = record.int(Field.rank) else { return nil }
        provider = record.string(Field.provider)
        id = record.string(Field.id)
        title = record.string(Field.title) ?? ""
        creator = record.string(Field.creator)
        query = record.string(Field.query)
        self.section = section
        self.rank = rank
        if let name = record.string(Field.rendition), let url = record.string(Field.url), let key = record.string(Field.cacheKey) {
            chosen = Rendition(name: name, url: url, width: record.int(Field.width), height: record.int(Field.height),
                               frames: record.int(Field.frames), size: record.int(Field.size), cacheKey: key)
        }
    }

    /// The record; `adding` writes a provider's own fields after the GIF's
    /// (a Commons picture's type and credit), then the fields of `pageRecord`
    /// that a page does not own (tags set upstream: ladder, rung, …) are carried on.
    public func record(carrying pageRecord: JSONRecord? = nil, adding: (JSONRecord) -> Void = { _ in }) -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", Self.kind)
        if let provider { record.set(Field.provider, provider) }
        if let id { record.set(Field.id, id) }
        record.set(Field.title, title)
        if let creator { record.set(Field.creator, creator) }
        if let query { record.set(Field.query, query) }
        record.set(Field.section, section)
        record.set(Field.rank, rank)
        if let chosen {
            record.set(Field.rendition, chosen.name)
            record.set(Field.url, chosen.url)
            record.set(Field.width, chosen.width)
            record.set(Field.height, chosen.height)
            record.set(Field.frames, chosen.frames)
            record.set(Field.size, chosen.size)
            record.set(Field.cacheKey, chosen.cacheKey)
        }
        adding(record)
        if let pageRecord {
            for key in pageRecord.keys where !PageRecord.fields.contains(key) && !record.has(key) {
                record.set(key, from: pageRecord)
            }
        }
        return record
    }
}
