import FetchKit
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

        /// A page of `items`.
        public init(items: [JSONRecord], totalCount: Int?, offset: Int?, hasNext: Bool? = nil) {
            self.items = items
            self.totalCount = totalCount
            self.offset = offset
            self.hasNext = hasNext
        }
    }
}
