import FetchKit
import SposureKit

/// What one Giphy API response amounts to, with every quirk of the real API
/// handled: two error shapes, string numbers, a missing `total_count`, `data`
/// as an object (gif by id), and the "synthetic" empty answer of a failing backend.
public enum GiphyResponse {
    /// A page of results.
    case page(Page)
    /// A failure; `transient` ones are worth retrying.
    case failure(FetchFailure)
    /// 401/403: the key is wrong; nothing else will work either.
    case unauthorized(String)

    /// The results of a page and what the API said of the whole list.
    public struct Page {
        /// The GIF objects, in order.
        public var items: [JSONRecord]
        /// `pagination.total_count`, when present.
        public var totalCount: Int?
        /// `pagination.offset`, when present.
        public var offset: Int?
        /// Klipy's `has_next`: whether another page follows (nil: Giphy, which says `total_count` instead).
        public var hasNext: Bool? = nil
    }

    /// Reads a response: its HTTP `status` and `body`; `url` (already redacted) for messages.
    public static func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        let json = body.withUnsafeBytes { try? JSONRecord.parse($0) }
        let message = json.flatMap { $0.object("meta")?.string("msg") ?? $0.string("message") }
        let metaStatus = json?.object("meta")?.int("status")
        let effective = (200..<300).contains(status) ? (metaStatus ?? status) : status
        if !(200..<300).contains(effective) {
            return failure(status: effective, message: message, url: url)
        }
        guard let json else {
            return .failure(FetchFailure("bad_response", "the API answered \(status) with a body that is not a JSON object (\(body.count) bytes) for \(url)", transient: true))
        }
        if !json.has("data"), let message {
            // The old bare shape: {"message": "..."} with a 200.
            let lower = message.lowercased()
            if lower.contains("rate limit") { return failure(status: 429, message: message, url: url) }
            if lower.contains("authentication") || lower.contains("unauthorized") { return .unauthorized(message) }
            return .failure(FetchFailure("bad_response", "the API said \"\(message)\" for \(url)"))
        }
        if let single = json.object("data") {
            return .page(Page(items: [single], totalCount: nil, offset: nil))
        }
        guard let items = json.objects("data") else {
            return .failure(FetchFailure("bad_response", "the API answer has no \"data\" array for \(url)", transient: true))
        }
        let pagination = json.object("pagination")
        let responseID = json.object("meta")?.string("response_id") ?? ""
        if items.isEmpty && pagination == nil && responseID.isEmpty {
            return .failure(FetchFailure("synthetic", "the API answered with an empty synthetic response (no pagination, no response_id): its backend is failing", transient: true))
        }
        return .page(Page(items: items, totalCount: pagination?.lenientInt("total_count"),
                          offset: pagination?.lenientInt("offset")))
    }

    private static func failure(status: Int, message: String?, url: String) -> GiphyResponse {
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
}
