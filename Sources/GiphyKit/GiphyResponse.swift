import NetKit
import SposureKit

/// What one API answer amounts to, whichever API gave it
/// (``GIFAPI/interpret(status:body:url:)`` reads it).
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
        /// Numbers of the answer past what JSON readers hold, as written
        /// (``JSONRecord/parseAnswer(_:)`` read them as reals, or null).
        public var outOfRange: [String] = []

        /// A page of `items`.
        public init(items: [JSONRecord], totalCount: Int?, offset: Int?, hasNext: Bool? = nil) {
            self.items = items
            self.totalCount = totalCount
            self.offset = offset
            self.hasNext = hasNext
        }
    }
}

extension GiphyResponse {
    /// `body` read as a JSON object, whatever numbers it holds
    /// (``JSONRecord/parseAnswer(_:)``), or why it is none.
    public static func read(_ body: [UInt8]) -> Result<(record: JSONRecord, outOfRange: [String]), JSONRecord.ParseError> {
        Result { () throws(JSONRecord.ParseError) in try JSONRecord.parseAnswer(body) }
    }

    /// The failure of a `status` answer whose `body` is not a JSON object,
    /// in jansson's words. Not retried: the same answer again is no better,
    /// and each retry would spend a call of the allowance.
    public static func unreadable(status: Int, body: [UInt8], url: String, _ error: JSONRecord.ParseError) -> FetchFailure {
        let what = body.isEmpty ? "an empty body" : "\(body.count) bytes that are not a JSON object (\(error.message), at byte \(error.position))"
        return FetchFailure("bad_response", "the API answered \(status) with \(what) for \(url)")
    }
}
