import NetKit
import RecordKit
import SposureKit

/// The reading of a Commons answer (``CommonsAPI``): its errors, its pages in
/// search order, and each file's `gif` record with its credit.
///
/// A file, as `prop=imageinfo&iiprop=url|size|mime|extmetadata&iiurlwidth=W` gives it:
///
/// ```json
/// {"pageid":123,"ns":6,"title":"File:Araneus diadematus.jpg","index":1,"imageinfo":[{
///  "size":2811227,"width":4000,"height":3000,"thumburl":"https://upload…/640px-Araneus_diadematus.jpg",
///  "thumbwidth":640,"thumbheight":480,"url":"https://upload…/Araneus_diadematus.jpg",
///  "descriptionurl":"https://commons.wikimedia.org/wiki/File:Araneus_diadematus.jpg","mime":"image/jpeg",
///  "extmetadata":{"Artist":{"value":"<a href=\"…\">Jane Doe</a>","source":"commons-desc-page"},
///   "LicenseShortName":{"value":"CC BY-SA 4.0"},"LicenseUrl":{"value":"https://creativecommons.org/licenses/by-sa/4.0"}}}]}
/// ```
enum CommonsAnswer {
    /// The `extmetadata` fields asked for (`iiextmetadatafilter`).
    static let metadataFields = ["Artist", "LicenseShortName", "LicenseUrl", "ImageDescription"]

    /// The longest author kept (Artist can hold a paragraph).
    static let authorLength = 300

    /// Reads an answer: its HTTP `status` and `body`; `url` for messages.
    static func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        let json: JSONRecord
        var outOfRange: [String] = []
        switch GiphyResponse.read(body) {
        case .success(let read): (json, outOfRange) = read
        case .failure(let error):
            if status == 403 { return .failure(forbidden(url)) }
            guard (200..<300).contains(status) else { return .failure(.http(status, url: url)) }
            let html = body.prefix(512).contains(0x3C) && String(decoding: body.prefix(512), as: UTF8.self).lowercased().contains("<html")
            if html { return .failure(FetchFailure("bad_response", "the API answered \(status) with an HTML page, not JSON, for \(url)")) }
            return .failure(GiphyResponse.unreadable(status: status, body: body, url: url, error))
        }
        if let error = json.object("error") {
            let code = RemoteText.clean(error.string("code") ?? "", limit: 40)
            let info = RemoteText.clean(error.string("info") ?? "", limit: 200)
            switch code {
            case "maxlag":
                // Waited out as Retry-After asks (the engine's retry); what
                // still lags when --max-time or --max-wait runs out is a timeout.
                return .failure(FetchFailure("timeout", "Wikimedia's servers stayed lagged (maxlag: \(info)), retried as their Retry-After asked until --max-time or --max-wait ran out", transient: true))
            case "ratelimited":
                return .failure(FetchFailure("rate_limited", "the API said \(code): \(info) for \(url)", transient: true))
            default:
                return .failure(FetchFailure("api_error", "the API said \(code.isEmpty ? "error" : code): \(info) for \(url)"))
            }
        }
        if status == 403 { return .failure(forbidden(url)) }
        guard (200..<300).contains(status) else { return .failure(.http(status, url: url)) }
        let query = json.object("query")
        guard query != nil || json.has("batchcomplete") || !json.has("continue") else {
            return .failure(FetchFailure("bad_response", "the API answer has no \"query\" for \(url)", transient: true))
        }
        // No results: no "query" at all. Pages come in any order: `index` is the search's.
        let pages = (query?.objects("pages") ?? []).enumerated()
            .sorted { ($0.element.lenientInt("index") ?? Int.max, $0.offset) < ($1.element.lenientInt("index") ?? Int.max, $1.offset) }
            .map(\.element)
        var page = GiphyResponse.Page(items: pages, totalCount: nil, offset: nil,
                                      hasNext: json.object("continue")?.has("gsroffset") == true)
        page.outOfRange = outOfRange
        return .page(page)
    }

    /// A 403: Wikimedia refuses a client that does not say who it is.
    static func forbidden(_ url: String) -> FetchFailure {
        FetchFailure("http_403", "HTTP 403 from \(url): Wikimedia refused the request (it refuses a client whose User-Agent does not "
            + "name it and a contact, and one that sends too much at once: https://meta.wikimedia.org/wiki/User-Agent_policy)")
    }

    /// What a search result says of its file.
    struct File {
        let item: JSONRecord
        let info: JSONRecord?
        let metadata: JSONRecord?

        init(_ item: JSONRecord) {
            self.item = item
            info = item.objects("imageinfo")?.first
            metadata = info?.object("extmetadata")
        }

        /// The name without `File:`, its extension or underscores.
        var title: String {
            var name = Substring(item.string("title") ?? "")
            if let colon = name.firstIndex(of: ":"), name[..<colon] == "File" { name = name[name.index(after: colon)...] }
            if let dot = name.lastIndex(of: "."), name.distance(from: dot, to: name.endIndex) <= 6, dot != name.startIndex {
                name = name[..<dot]
            }
            return GIFRecord.cleanTitle(String(name.map { $0 == "_" ? " " : $0 }))
        }

        /// The original's MIME type.
        var mime: String? { info?.string("mime") }

        /// An `extmetadata` field's value as plain text; nil when absent or blank.
        func text(_ field: String, limit: Int = CommonsAnswer.authorLength) -> String? {
            guard let value = metadata?.object(field)?.string("value") else { return nil }
            let text = RemoteText.plainText(html: value, limit: limit)
            return text.isEmpty ? nil : text
        }

        var author: String? { text("Artist") }
        var license: String? { text("LicenseShortName", limit: 100) }
        var description: String? { text("ImageDescription", limit: 500) }

        /// `LicenseUrl`, when it is an http(s) URL (a `javascript:` one is nothing to follow).
        var licenseURL: String? { httpURL(metadata?.object("LicenseUrl")?.string("value")) }

        func httpURL(_ text: String?) -> String? {
            guard let text = text?.trimmingWhitespaceAndNewlines(), !text.isEmpty else { return nil }
            let url = text.hasPrefix("//") ? "https:" + text : text
            let lower = url.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"),
                  !url.unicodeScalars.contains(where: { RemoteText.isTerminalControl($0) || $0 == " " }) else { return nil }
            return url
        }
    }

    /// The `gif` record of `item`, the `index`-th result of `page`: its
    /// thumbnail (the original only when there is none), its MIME type and
    /// its credit (author, licence, where its page is), which the licences
    /// ask to be shown. A file without a licence is left out, as an error record.
    static func record(of item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                       thumbWidth: Int, api: CommonsAPI) -> Result<JSONRecord, GIFRecord.Problem> {
        guard let id = api.id(of: item) else {
            return .failure(GIFRecord.Problem(code: "bad_item", message: "a result has no whole-number \"pageid\"\(GIFRecord.found(item, "pageid"))", id: nil))
        }
        let file = File(item)
        guard let info = file.info else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "file \(id) came without its image info", id: id))
        }
        let thumb = file.httpURL(info.string("thumburl"))
        guard let url = thumb ?? file.httpURL(info.string("url")) else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "file \(id) has no http(s) URL", id: id))
        }
        guard let license = file.license else {
            return .failure(GIFRecord.Problem(code: "no_license", message: "file \(id) names no licence in its metadata: left out, as it could not be credited", id: id))
        }
        let chosen = GIFRecord.Rendition(
            name: thumb == nil ? "original" : "thumb", url: url,
            width: thumb == nil ? info.lenientInt("width") : info.lenientInt("thumbwidth"),
            height: thumb == nil ? info.lenientInt("height") : info.lenientInt("thumbheight"),
            frames: nil, size: thumb == nil ? info.lenientInt("size") : nil,
            cacheKey: thumb == nil ? "commons:\(id):original" : "commons:\(id):\(thumbWidth)px")
        let author = file.author
        let gif = GIFRecord(provider: .commons, id: id, title: file.title, creator: author, page: page, index: index, chosen: chosen)
        // The picture's own type: a thumbnail's (a PNG of a GIF's first frame, say) when there is one.
        let mime = (thumb == nil ? nil : info.string("thumbmime")) ?? file.mime
        let pageURL = file.httpURL(info.string("descriptionurl"))
        return .success(gif.record(carrying: pageRecord) { record in
            record.set(Field.mime, mime.map { RemoteText.clean($0, limit: 60) })
            if let author { record.set(Field.author, author) }
            record.set(Field.license, license)
            if let licenseURL = file.licenseURL { record.set(Field.licenseURL, licenseURL) }
            if let pageURL { record.set(Field.pageURL, pageURL) }
        })
    }

    /// The gif record's names (a Commons record adds mime and the credit).
    typealias Field = GIFRecord.Field
}
