import NetKit
import RecordKit
import SposureKit

/// Wikimedia Commons' MediaWiki API: freely licensed pictures, no key. A
/// search of the File namespace as a generator, each file's image info
/// (a thumbnail at the width the player needs, its MIME type, its author
/// and licence) in the same answer.
///
/// ```
/// GET {base}?action=query&format=json&formatversion=2&generator=search&gsrsearch=Q filetype:bitmap
///     &gsrnamespace=6&gsrlimit=N&gsroffset=O&prop=imageinfo&iiprop=url|size|mime|thumbmime|extmetadata
///     &iiurlwidth=W&iiextmetadatafilter=…&iiextmetadatalanguage=en&maxlag=5
/// {"continue":{"gsroffset":O+N,"continue":"gsroffset||"},
///  "query":{"pages":[{"pageid":N,"ns":6,"title":"File:….jpg","index":1,"imageinfo":[{…}]}, …]}}
/// ```
///
/// Its etiquette (API:Etiquette): a User-Agent that names the program and a
/// contact (``UserAgent``; 403 without one), one request at a time
/// (``maxConcurrency``), and `maxlag=5`, whose error is waited out as its
/// `Retry-After` asks (within `--max-time`). The answer is read by
/// ``CommonsAnswer``; what the player cannot show (SVG, TIFF, PDF, video) is
/// left out before any fetch (``unplayable(_:)``).
public struct CommonsAPI: GIFAPI {
    /// The thumbnail width asked for (`iiurlwidth`): one of ``standardWidths``.
    public var thumbWidth: Int

    /// Commons, thumbnails at least `width` pixels wide: the first of
    /// ``standardWidths`` that is (`list --width`).
    public init(thumbWidth width: Int = CommonsAPI.defaultWidth) {
        thumbWidth = Self.standardWidth(atLeast: width)
    }

    /// The width a terminal's picture needs when nothing says more (a kitty
    /// or sixel window of 80 columns at 8 px a cell; half blocks far less):
    /// asked as 960, the first standard width that covers it.
    public static let defaultWidth = 640
    /// The widths `--width` takes.
    public static let widths = 32...4096
    /// The thumbnail widths Wikimedia renders and keeps (its thumbnail
    /// steps; it is phasing out every other width, and one of these is most
    /// likely made already, so it comes soonest).
    public static let standardWidths = [120, 250, 330, 500, 960, 1280, 1920, 3840]

    /// The first standard width at least `width` wide (the widest past them all).
    public static func standardWidth(atLeast width: Int) -> Int {
        standardWidths.first { $0 >= width } ?? standardWidths[standardWidths.count - 1]
    }

    public var name: String { "commons" }
    public var displayName: String { "Wikimedia Commons" }
    /// None: Commons needs no key.
    public var keyVariable: String { "" }
    public var urlVariable: String { "COMMONS_API_URL" }
    public var defaultBase: String { "https://commons.wikimedia.org/w/api.php" }
    public var keyHelp: String { "no key needed" }
    public var keyAdvice: String { "Wikimedia Commons needs no key" }
    public var needsKey: Bool { false }
    /// One request at a time, as API:Etiquette asks.
    public var maxConcurrency: Int? { 1 }
    /// Far under what Commons takes from a polite client (no limit is set
    /// for reads made one at a time), but a bound on a run that loops.
    public var defaultRate: (calls: Int, period: Double) { (500, 3600) }
    /// `gsrlimit`'s most for a client that is not a bot.
    public var maxLimit: Int { 50 }
    /// CirrusSearch's longest search.
    public var maxQueryLength: Int? { 300 }
    /// Its `continue` says whether more follows; no total is asked first.
    public var countsResults: Bool { false }
    public var usesCustomerID: Bool { false }
    /// One rendition: the thumbnail (the original only where there is none).
    public var renditions: [String] { ["thumb"] }
    public var defaultRendition: String { "thumb" }
    public func chain(for rendition: String) -> [String] { ["thumb", "original"] }

    /// Pages planned without `--max-results`.
    public static let defaultPages = 10
    /// CirrusSearch serves results up to the 10 000th (offset + limit).
    public static let resultCap = 10_000
    /// What "trending" means here: Commons' featured pictures.
    public static let trendingSearch = "incategory:Featured_pictures_on_Wikimedia_Commons"
    /// Added to every search: raster images only (no PDF, DjVu, SVG, audio or video pages of results).
    public static let searchFilter = "filetype:bitmap"

    /// The formats the player decodes; anything else is left out before a fetch.
    public static let playable: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    // MARK: Pages

    public func offsetCap(for endpoint: GiphyEndpoint) -> Int? { Self.resultCap - 1 }

    /// `limit` results a page from offset 0, up to `maxResults` (nil: ten
    /// pages) and the 10 000 results search serves.
    public func pages(endpoint: GiphyEndpoint, query: String?, section: String, total: Int?, limit: Int,
                      maxResults: Int?, rating: String, lang: String) -> [PageRequest] {
        let end = min(Self.resultCap, maxResults ?? limit * Self.defaultPages)
        var pages: [PageRequest] = []
        var offset = 0
        while offset < end {
            pages.append(PageRequest(endpoint: endpoint, query: query, section: section, offset: offset,
                                     limit: min(limit, end - offset), rating: rating, lang: lang, total: nil, provider: .commons))
            offset += limit
        }
        return pages
    }

    public func readPaging(_ record: JSONRecord, into page: inout PageRequest) throws(PageRequest.PageError) {
        page.offset = try PageRequest.whole(record, PageRequest.Field.offset, in: 0...(Self.resultCap - 1), rule: "from 0 to \(Self.resultCap - 1)",
                                            record: "a Commons page record")
        page.limit = try PageRequest.whole(record, PageRequest.Field.limit, in: 1...maxLimit, rule: "from 1 to \(maxLimit)",
                                           record: "a Commons page record")
        page.total = nil
    }

    public func record(of page: PageRequest) -> JSONRecord {
        PageRecord(provider: name, endpoint: page.endpoint.rawValue, query: page.query, section: page.section,
                   paging: .uncounted(offset: page.offset, limit: page.limit), rating: page.rating, lang: page.lang).record()
    }

    // MARK: URLs

    /// The search of `page`; no key, nothing secret.
    public func url(_ page: PageRequest, base: String, key: String, customerID: String) -> String {
        let search = (page.endpoint == .search ? page.query ?? "" : Self.trendingSearch) + " " + Self.searchFilter
        let items = [
            "action=query", "format=json", "formatversion=2", "generator=search",
            "gsrsearch=\(PageRequest.escape(search))", "gsrnamespace=6",
            "gsrlimit=\(max(1, min(page.limit, Self.resultCap - page.offset)))", "gsroffset=\(page.offset)",
            "prop=imageinfo", "iiprop=\(PageRequest.escape("url|size|mime|thumbmime|extmetadata"))", "iiurlwidth=\(thumbWidth)",
            "iiextmetadatafilter=\(PageRequest.escape(CommonsAnswer.metadataFields.joined(separator: "|")))",
            "iiextmetadatalanguage=\(PageRequest.escape(page.lang))", "maxlag=5",
        ]
        return "\(base)?\(items.joined(separator: "&"))"
    }

    public func displayURL(_ page: PageRequest, base: String, hasCustomerID: Bool) -> String {
        url(page, base: base, key: "", customerID: "")
    }

    /// Nothing to mask: there is no key.
    public func masked(_ text: String) -> String { text }

    // MARK: Answers

    public func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        CommonsAnswer.interpret(status: status, body: body, url: url)
    }

    /// The first `limit` results.
    public func kept(_ items: [JSONRecord], page: PageRequest) -> ArraySlice<JSONRecord> { items.prefix(page.limit) }

    /// The file's page id, as a decimal string.
    public func id(of item: JSONRecord) -> String? {
        guard let id = item.int("pageid"), id > 0 else { return nil }
        return String(id)
    }

    /// Its title (the file's name), its description and its author, as plain text.
    public func text(of item: JSONRecord) -> ResultText {
        let file = CommonsAnswer.File(item)
        return ResultText(title: file.title, tags: file.description.map { [$0] } ?? [], creatorNames: file.author.map { [$0] } ?? [])
    }

    /// Its MIME type when the player cannot show it (SVG, TIFF, PDF, video, audio).
    public func unplayable(_ item: JSONRecord) -> String? {
        guard let mime = CommonsAnswer.File(item).mime, !Self.playable.contains(mime.lowercased()) else { return nil }
        return mime
    }

    public func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                     choices: [String]) -> Result<JSONRecord, GIFRecord.Problem> {
        CommonsAnswer.record(of: item, index: index, page: page, pageRecord: pageRecord, thumbWidth: thumbWidth, api: self)
    }
}
