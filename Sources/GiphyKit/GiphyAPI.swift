import NetKit
import RecordKit
import SposureKit

/// Giphy's GIF API: `api_key=` in the query, pages by offset, a
/// `total_count`, an offset cap, string numbers, two error shapes.
///
/// ```
/// GET {base}/v1/gifs/search?api_key=KEY&q=…&limit=N&offset=N&rating=g&lang=en
/// GET {base}/v1/gifs/trending?api_key=KEY&limit=N&offset=N&rating=g&lang=en
/// {"data":[GIF…],"pagination":{"total_count":N,"count":N,"offset":N},"meta":{"status":200,"msg":"OK","response_id":"…"}}
/// ```
public struct GiphyAPI: GIFAPI {
    /// Whether a rendition's WebP is taken where Giphy says it weighs less than its GIF (`list --formats gif,webp`).
    public var webp: Bool

    /// Giphy; with `webp`, a rendition's WebP where it is smaller.
    public init(webp: Bool = false) { self.webp = webp }

    public var name: String { "giphy" }
    public var displayName: String { "Giphy" }
    public var keyVariable: String { "GIPHY_API_KEY" }
    public var urlVariable: String { "GIPHY_API_URL" }
    public var defaultBase: String { "https://api.giphy.com" }
    public var keyHelp: String { "free at https://developers.giphy.com/dashboard/ (create an app, choose \"API\")" }
    public var keyAdvice: String { "Get a free key at https://developers.giphy.com/dashboard/ (create an app, choose \"API\")" }
    /// A beta key's 100 calls an hour.
    public var defaultRate: (calls: Int, period: Double) { (100, 3600) }
    public var maxLimit: Int { 100 }
    /// Longer queries get 414.
    public var maxQueryLength: Int? { 50 }
    public var countsResults: Bool { true }
    public var usesCustomerID: Bool { false }
    public var renditions: [String] { Self.gifRenditions }
    public var defaultRendition: String { "fixed_height" }

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

    /// `rendition` first, then the fallbacks.
    public func chain(for rendition: String) -> [String] {
        [rendition] + Self.fallbacks.filter { $0 != rendition }
    }

    // MARK: Pages

    /// The largest offset each endpoint serves; past it a page is empty.
    public func offsetCap(for endpoint: GiphyEndpoint) -> Int? {
        switch endpoint {
        case .search: return 4999
        case .trending: return 499
        }
    }

    /// `limit` results a page, up to `maxResults`, the known `total`, and the
    /// endpoint's offset cap, whichever comes first.
    public func pages(endpoint: GiphyEndpoint, query: String?, section: String, total: Int?, limit: Int,
                      maxResults: Int?, rating: String, lang: String) -> [PageRequest] {
        var end = (offsetCap(for: endpoint) ?? Int.max - 1) + 1
        if let total { end = min(end, total) }
        if let maxResults { end = min(end, maxResults) }
        var pages: [PageRequest] = []
        var offset = 0
        while offset < end {
            pages.append(PageRequest(endpoint: endpoint, query: query, section: section, offset: offset,
                                     limit: min(limit, end - offset), rating: rating, lang: lang, total: total))
            offset += limit
        }
        return pages
    }

    public func readPaging(_ record: JSONRecord, into page: inout PageRequest) throws(PageRequest.PageError) {
        page.offset = try PageRequest.whole(record, PageRequest.Field.offset, in: 0...Int.max, rule: "≥ 0", record: "a page record")
        page.limit = try PageRequest.whole(record, PageRequest.Field.limit, in: 1...100, rule: "from 1 to 100", record: "a page record")
        page.total = record.int(PageRequest.Field.total)
    }

    /// Giphy's pages carry no provider: absent means giphy, as before there were two.
    public func record(of page: PageRequest) -> JSONRecord {
        PageRecord(provider: nil, endpoint: page.endpoint.rawValue, query: page.query, section: page.section,
                   paging: .offset(offset: page.offset, limit: page.limit, total: page.total), rating: page.rating,
                   lang: page.lang).record()
    }

    // MARK: URLs

    public func url(_ page: PageRequest, base: String, key: String, customerID: String) -> String {
        var items = ["api_key=\(PageRequest.escape(key))"]
        if let query = page.query { items.append("q=\(PageRequest.escape(query))") }
        items += ["limit=\(page.limit)", "offset=\(page.offset)", "rating=\(PageRequest.escape(page.rating))",
                  "lang=\(PageRequest.escape(page.lang))"]
        return "\(PageRequest.trimmed(base))/v1/gifs/\(page.endpoint.rawValue)?\(items.joined(separator: "&"))"
    }

    public func displayURL(_ page: PageRequest, base: String, hasCustomerID: Bool) -> String {
        redactedURL(url(page, base: base, key: "REDACTED", customerID: ""))
    }

    /// The key is a query parameter, which the key's own masking covers.
    public func masked(_ text: String) -> String { text }

    // MARK: Answers

    /// Reads a response, with every quirk of the real API handled: two error
    /// shapes, string numbers, a missing `total_count`, `data` as an object
    /// (gif by id), and the "synthetic" empty answer of a failing backend.
    public func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        let parsed = GiphyResponse.read(body)
        let readable = try? parsed.get().record
        let message = readable.flatMap { $0.object("meta")?.string("msg") ?? $0.string("message") }
        let metaStatus = readable?.object("meta")?.int("status")
        let effective = (200..<300).contains(status) ? (metaStatus ?? status) : status
        if !(200..<300).contains(effective) {
            return failure(status: effective, message: message, url: url)
        }
        let (json, outOfRange): (JSONRecord, [String])
        switch parsed {
        case .success(let read): (json, outOfRange) = read
        case .failure(let error): return .failure(GiphyResponse.unreadable(status: status, body: body, url: url, error))
        }
        if !json.has("data"), let message {
            // The old bare shape: {"message": "..."} with a 200.
            let lower = message.lowercased()
            if lower.contains("rate limit") { return failure(status: 429, message: message, url: url) }
            if lower.contains("authentication") || lower.contains("unauthorized") { return .unauthorized(message) }
            return .failure(FetchFailure("bad_response", "the API said \"\(message)\" for \(url)"))
        }
        if let single = json.object("data") {
            var page = GiphyResponse.Page(items: [single], totalCount: nil, offset: nil)
            page.outOfRange = outOfRange
            return .page(page)
        }
        guard let items = json.objects("data") else {
            return .failure(FetchFailure("bad_response", "the API answer has no \"data\" array for \(url)", transient: true))
        }
        let pagination = json.object("pagination")
        let responseID = json.object("meta")?.string("response_id") ?? ""
        if items.isEmpty && pagination == nil && responseID.isEmpty {
            return .failure(FetchFailure("synthetic", "the API answered with an empty synthetic response (no pagination, no response_id): its backend is failing", transient: true))
        }
        var page = GiphyResponse.Page(items: items, totalCount: pagination?.lenientInt("total_count"),
                                      offset: pagination?.lenientInt("offset"))
        page.outOfRange = outOfRange
        return .page(page)
    }

    private func failure(status: Int, message: String?, url: String) -> GiphyResponse {
        let said = message.map { ": \($0)" } ?? ""
        switch status {
        case 401, 403:
            return .unauthorized(message ?? "HTTP \(status)")
        case 414:
            return .failure(FetchFailure("query_too_long", "HTTP 414 (the query is too long; Giphy takes at most 50 characters)\(said)"))
        default:
            var failure = FetchFailure.http(status, url: url)
            failure.message += said
            return .failure(failure)
        }
    }

    /// All of a page's results.
    public func kept(_ items: [JSONRecord], page: PageRequest) -> ArraySlice<JSONRecord> { items[...] }

    public func id(of item: JSONRecord) -> String? {
        guard let id = item.string("id"), !id.isEmpty else { return nil }
        return id
    }

    /// Its title, its slug (the id taken off), its tags (given to some keys
    /// only) and its creator: `user.display_name`, else `user.username`, else
    /// `username` (an empty one is none).
    public func text(of item: JSONRecord) -> ResultText {
        let user = item.object("user")
        let names = [user?.string("display_name"), user?.string("username"), item.string("username")].compactMap { $0 }
        return ResultText(title: item.string("title") ?? "", slug: ResultText.slug(item.string("slug"), id: id(of: item)),
                          tags: item.stringElements("tags", limit: ResultText.maxTags), creatorNames: names)
    }

    /// The `gif` record of `item` in the first of the renditions `choices` it has.
    ///
    /// ```json
    /// {"kind":"gif","id":"3o7TKSjRrfIPjeiVyM","title":"…","query":"spiders","section":"spiders",
    ///  "rank":0,"rendition":"fixed_height","url":"https://media…/200.gif?cid=…","width":356,
    ///  "height":200,"frames":24,"size":512345,"cache_key":"giphy:3o7TKSjRrfIPjeiVyM:fixed_height"}
    /// ```
    public func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                     choices: [String]) -> Result<JSONRecord, GIFRecord.Problem> {
        guard let id = id(of: item) else {
            return .failure(GIFRecord.Problem(code: "bad_item", message: "a result has no string \"id\"\(GIFRecord.found(item, "id"))", id: nil))
        }
        guard let images = item.object("images") else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "GIF \(id) has no \"images\"", id: id))
        }
        guard let (name, rendition) = choices.lazy.compactMap({ name in
            images.object(name).flatMap { GIFRecord.usable($0) ? (name, $0) : nil }
        }).first, let url = rendition.string("url") else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "GIF \(id) has none of the GIF renditions \(choices.joined(separator: ", "))", id: id))
        }
        var chosen = GIFRecord.Rendition(
            name: name, url: url, width: rendition.lenientInt("width"), height: rendition.lenientInt("height"),
            frames: rendition.lenientInt("frames") ?? images.object("original")?.lenientInt("frames"),
            size: rendition.lenientInt("size"), cacheKey: "\(self.name):\(id):\(name)")
        // The same frames as WebP, where Giphy says they weigh less (webp_size < size).
        let lighter = webp ? WebPChoice.lighter(url: rendition.string("webp"), size: rendition.lenientInt("webp_size"), than: chosen) : nil
        if let lighter { chosen = lighter }
        let gif = GIFRecord(provider: .giphy, id: id, title: item.string("title") ?? "", creator: text(of: item).creator,
                            page: page, index: index, chosen: chosen)
        return .success(WebPChoice.typed(gif.record(carrying: pageRecord), webp: lighter != nil))
    }
}
