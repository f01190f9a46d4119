import FetchKit
import SposureKit

/// Klipy's GIF API, as its public clients use it: the URL of a page, the
/// reading of an answer, and the `gif` record of an item.
///
/// ```
/// GET {base}/api/v1/{KEY}/gifs/search?q=…&page=N&per_page=N&customer_id=…&locale=…&content_filter=…
/// GET {base}/api/v1/{KEY}/gifs/trending?page=N&per_page=N&customer_id=…&locale=…&content_filter=…
/// {"result":true,"data":{"data":[ITEM…],"current_page":N,"per_page":N,"has_next":true|false}}
/// ```
///
/// The key is a path segment, so every URL shown goes through ``redactedPath(_:)``.
public enum KlipyAPI {
    /// Klipy's sizes, largest first: `hd`, `md`, `sm` (about 220 px, the
    /// closest to Giphy's `fixed_height`) and `xs`.
    public static let sizes = ["hd", "md", "sm", "xs"]

    /// `size`, then the other sizes by how close they are to it (the next
    /// larger first): sm → md, xs, hd.
    public static func chain(for size: String) -> [String] {
        guard let index = sizes.firstIndex(of: size) else { return chain(for: "sm") }
        var chain = [size]
        for distance in 1..<sizes.count {
            if index - distance >= 0 { chain.append(sizes[index - distance]) }
            if index + distance < sizes.count { chain.append(sizes[index + distance]) }
        }
        return chain
    }

    /// Giphy's `--rating` as Klipy's `content_filter`: g high, pg medium, pg-13 low, r off.
    public static func contentFilter(rating: String) -> String {
        switch rating {
        case "r": return "off"
        case "pg-13": return "low"
        case "pg": return "medium"
        default: return "high"
        }
    }

    /// The URL of `page`, with `key` as its path segment.
    static func url(_ page: PageRequest, base: String, key: String, customerID: String) -> String {
        var items: [String] = []
        if let query = page.query { items.append("q=\(PageRequest.escape(query))") }
        items += ["page=\(page.page ?? 1)", "per_page=\(page.perPage ?? page.limit)"]
        if !customerID.isEmpty { items.append("customer_id=\(PageRequest.escape(customerID))") }
        items += ["locale=\(PageRequest.escape(page.lang))", "content_filter=\(contentFilter(rating: page.rating))"]
        return "\(base)/api/v1/\(PageRequest.escape(key))/gifs/\(page.endpoint.rawValue)?\(items.joined(separator: "&"))"
    }

    /// `text` with the segment after every `/api/v1/` masked: where Klipy's key goes.
    public static func redactedPath(_ text: String) -> String {
        // Bytes, not characters: a combining mark after a `/` makes it part of
        // another character, and the segment would go unmasked.
        var result: [UInt8] = []
        var rest = Array(text.utf8)[...]
        let marker = Array("/api/v1/".utf8)
        while let range = rest.firstRange(of: marker) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { [0x2F, 0x3F, 0x20, 0x22, 0x23].contains($0) } ?? rest.endIndex  // / ? space " #
            if end != rest.startIndex { result += Array("REDACTED".utf8) }
            rest = rest[end...]
        }
        return String(decoding: result + rest, as: UTF8.self)
    }

    /// Reads an answer: its HTTP `status` and `body`; `url` (already redacted) for messages.
    public static func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        let json = body.withUnsafeBytes { try? JSONRecord.parse($0) }
        let message = json.flatMap(message(of:))
        let said = message.map { ": \($0)" } ?? ""
        switch status {
        case 200..<300: break
        case 401, 403: return .unauthorized(message ?? "HTTP \(status)")
        default:
            var failure = FetchFailure.http(status, url: url)
            failure.message += said
            return .failure(failure)
        }
        guard let json else {
            return .failure(FetchFailure("bad_response", "the API answered \(status) with a body that is not a JSON object (\(body.count) bytes) for \(url)", transient: true))
        }
        if json.bool("result") == false {
            let lower = (message ?? "").lowercased()
            if lower.contains("key") || lower.contains("unauthorized") || lower.contains("forbidden") {
                return .unauthorized(message ?? "refused")
            }
            return .failure(FetchFailure("bad_response", "the API said \"\(message ?? "result: false")\" for \(url)"))
        }
        guard let data = json.object("data"), let items = data.objects("data") else {
            return .failure(FetchFailure("bad_response", "the API answer has no \"data\".\"data\" array for \(url)", transient: true))
        }
        return .page(GiphyResponse.Page(items: items, totalCount: nil, offset: nil, hasNext: data.bool("has_next")))
    }

    /// The message of an error answer, in the shapes Klipy uses.
    private static func message(of json: JSONRecord) -> String? {
        if let text = json.string("message") { return text }
        if let errors = json.object("errors") {
            // Validation errors: a string, else whatever JSON it is, as written.
            return errors.string("message") ?? errors.jsonText("message")
        }
        return nil
    }

    /// An item's id as the exact decimal string (ids of 16 digits pass 2^53: never a double).
    public static func id(of item: JSONRecord) -> String? {
        if item.has("id") && item.string("id") == nil {
            // The number as written back from jansson's 64-bit integer: exact,
            // where a double would round ids past 2^53. A real is refused.
            guard let text = item.jsonText("id") else { return nil }
            return !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }) ? text : nil
        }
        if let text = item.string("id"), !text.isEmpty { return text }
        return nil
    }

    /// The `gif` record for `item`, the `index`-th result of `page`, in the
    /// first size of `sizes` that has a `gif`; fields of `pageRecord` that a
    /// page does not own are carried on, after the GIF's own.
    public static func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
                            sizes: [String]) -> Result<JSONRecord, GIFRecord.Problem> {
        guard let id = id(of: item) else {
            return .failure(GIFRecord.Problem(code: "bad_item", message: "a result has no integer or string \"id\"", id: nil))
        }
        let file = item.object("file")
        guard let (size, gif) = sizes.lazy.compactMap({ size in
            file?.object(size)?.object("gif").flatMap { GIFRecord.usable($0) ? (size, $0) : nil }
        }).first, let url = gif.string("url") else {
            return .failure(GIFRecord.Problem(code: "no_rendition", message: "GIF \(id) has a gif in none of the sizes \(sizes.joined(separator: ", "))", id: id))
        }
        let record = JSONRecord()
        record.set("kind", "gif")
        record.set("provider", GIFProvider.klipy.rawValue)
        record.set("id", id)
        record.set("title", GIFRecord.cleanTitle(item.string("title") ?? ""))
        if let query = page.query { record.set("query", query) }
        record.set("section", page.section)
        record.set("rank", page.offset + index)
        record.set("rendition", size)
        record.set("url", url)
        record.set("width", gif.lenientInt("width"))
        record.set("height", gif.lenientInt("height"))
        record.set("frames", nil as Int?)
        record.set("size", gif.lenientInt("size"))
        record.set("cache_key", "klipy:\(id):\(size)")
        GIFRecord.carryPageFields(of: pageRecord, into: record)
        return .success(record)
    }
}
