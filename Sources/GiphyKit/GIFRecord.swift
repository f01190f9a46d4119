import SposureKit

/// Turns one GIF object of a Giphy response into the `gif` record of the stream.
///
/// ```json
/// {"kind":"gif","id":"3o7TKSjRrfIPjeiVyM","title":"…","query":"spiders","section":"spiders",
///  "rank":0,"rendition":"fixed_height","url":"https://media…/200.gif?cid=…","width":356,
///  "height":200,"frames":24,"size":512345,"cache_key":"giphy:3o7TKSjRrfIPjeiVyM:fixed_height"}
/// ```
public enum GIFRecord {
    /// The renditions tried, in order, after the one asked for: all GIFs, from
    /// about the size a terminal needs to the original.
    public static let fallbacks = ["fixed_height", "fixed_height_downsampled", "fixed_width", "downsized",
                                   "downsized_medium", "fixed_width_downsampled", "downsized_large", "original"]

    /// Every Giphy rendition that is a GIF file (the stills are one-frame GIFs;
    /// the mp4 and webp ones are not GIFs), for checking `--rendition`.
    public static let gifRenditions = fallbacks + [
        "fixed_height_small", "fixed_width_small", "preview_gif", "fixed_height_still", "fixed_width_still",
        "fixed_height_small_still", "fixed_width_small_still", "downsized_still", "original_still", "480w_still",
    ]

    /// Why a GIF object cannot become a record.
    public struct Problem: Error, Sendable {
        /// The error code (`no_rendition`, `bad_item`).
        public var code: String
        public var message: String
        /// The GIF's id, when it has one.
        public var id: String?
    }

    /// The chain for `rendition`: it first, then the fallbacks.
    public static func chain(for rendition: String) -> [String] {
        [rendition] + fallbacks.filter { $0 != rendition }
    }

    /// The `gif` record for `item`, the `index`-th result of `page`; fields of
    /// `pageRecord` that a page does not own are carried on, after the GIF's own.
    public static func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                            renditions: [String]) -> Result<JSONRecord, Problem> {
        guard let id = item.string("id"), !id.isEmpty else {
            return .failure(Problem(code: "bad_item", message: "a result has no string \"id\"", id: nil))
        }
        guard let images = item.object("images") else {
            return .failure(Problem(code: "no_rendition", message: "GIF \(id) has no \"images\"", id: id))
        }
        guard let (name, rendition) = renditions.lazy.compactMap({ name in
            images.object(name).flatMap { usable($0) ? (name, $0) : nil }
        }).first, let url = rendition.string("url") else {
            return .failure(Problem(code: "no_rendition", message: "GIF \(id) has none of the GIF renditions \(renditions.joined(separator: ", "))", id: id))
        }
        let record = JSONRecord()
        record.set("kind", "gif")
        record.set("id", id)
        record.set("title", cleanTitle(item.string("title") ?? ""))
        if let query = page.query { record.set("query", query) }
        record.set("section", page.section)
        record.set("rank", page.offset + index)
        record.set("rendition", name)
        record.set("url", url)
        record.set("width", rendition.lenientInt("width"))
        record.set("height", rendition.lenientInt("height"))
        record.set("frames", rendition.lenientInt("frames") ?? images.object("original")?.lenientInt("frames"))
        record.set("size", rendition.lenientInt("size"))
        record.set("cache_key", "giphy:\(id):\(name)")
        carryPageFields(of: pageRecord, into: record)
        return .success(record)
    }

    /// Carries on the fields of `pageRecord` that a page does not own (tags set
    /// upstream: ladder, rung, …), after the GIF's own; the same for every API.
    static func carryPageFields(of pageRecord: JSONRecord?, into record: JSONRecord) {
        guard let pageRecord else { return }
        for key in pageRecord.keys where !PageRequest.fields.contains(key) && !record.has(key) {
            record.set(key, from: pageRecord)
        }
    }

    /// A rendition is usable when it has a URL whose path ends in `.gif`.
    static func usable(_ rendition: JSONRecord) -> Bool {
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
