import LadderKit
import SposureKit

/// How distressing one GIF was, rated with a digit key while it played
/// (0 calm … 9 worst): one line of the ratings file.
///
/// ```json
/// {"kind":"rated","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","rating":8,"ladder":"spiders","rung":4,"at":"2026-11-21T10:00:00Z"}
/// ```
public struct GIFRating: Sendable, Equatable {
    /// The API the GIF came from (`giphy`, `klipy`, `local` for a ladder folder).
    public var provider: String
    /// Its id there.
    public var id: String
    /// The rating, 0–9.
    public var rating: Int
    /// The ladder it was rated on, when any.
    public var ladder: String?
    /// The rung, when on a ladder.
    public var rung: Int?
    /// When the round started.
    public var at: String?

    /// The digits a rating may be.
    public static let scale = 0...9

    /// A rating.
    public init(provider: String, id: String, rating: Int, ladder: String? = nil, rung: Int? = nil, at: String? = nil) {
        self.provider = provider
        self.id = id
        self.rating = rating
        self.ladder = ladder
        self.rung = rung
        self.at = at
    }

    /// Reads a `rated` record (the player's event, or a line of the file); nil
    /// without a string `id` and a `rating` 0–9. A missing `provider` is `giphy`.
    public init?(record: JSONRecord) {
        guard record.kind == "rated", let id = record.string("id"), !id.isEmpty,
              let rating = record.int("rating"), Self.scale.contains(rating) else { return nil }
        self.id = id
        self.rating = rating
        provider = record.string("provider") ?? "giphy"
        ladder = record.string("ladder")
        rung = record.int("rung")
        at = record.string("at")
    }

    /// The line kept in the ratings file.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "rated")
        record.set("provider", provider)
        record.set("id", id)
        record.set("rating", rating)
        if let ladder { record.set("ladder", ladder) }
        if let rung { record.set("rung", rung) }
        if let at { record.set("at", at) }
        return record
    }

    /// Whether a GIF rated this is well above a rung of `rungSuds` (0–100):
    /// `margin` (3) or more over the rung's SUDS / 10.
    public func isWellAbove(rungSuds: Int, margin: Int = 3) -> Bool {
        rating * 10 >= rungSuds + margin * 10
    }
}
