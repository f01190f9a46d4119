import SposureKit

/// How distressing one GIF was, rated with a digit key while it played
/// (0 calm … 9 worst): the `rated` record, both gif-play's event (with the
/// session time) and a line of the ratings file (with the ladder and date).
///
/// ```json
/// {"kind":"rated","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","rating":8,"t_ms":4200}
/// {"kind":"rated","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","rating":8,"ladder":"spiders","rung":4,"at":"2026-11-21T10:00:00Z"}
/// ```
public struct GIFRating: GIFNote, Sendable, Equatable {
    /// The API the GIF came from (`giphy`, `klipy`, `local` for a ladder
    /// folder), when the record names one: a Giphy GIF's record may not.
    public var provider: String?
    /// Its id there.
    public var id: String
    /// The rating, 0–9.
    public var rating: Int
    /// When, in ms of the session (the player's event).
    public var atMs: Int?
    /// The ladder it was rated on, when any.
    public var ladder: String?
    /// The rung, when on a ladder.
    public var rung: Int?
    /// When the round started.
    public var at: String?

    /// The record's `kind`.
    public static let kind = "rated"
    /// The field names (the events').
    public typealias Field = RoundEvent.Field

    /// The digits a rating may be.
    public static let scale = 0...9

    /// A rating.
    public init(provider: String?, id: String, rating: Int, atMs: Int? = nil, ladder: String? = nil, rung: Int? = nil, at: String? = nil) {
        self.provider = provider
        self.id = id
        self.rating = rating
        self.atMs = atMs
        self.ladder = ladder
        self.rung = rung
        self.at = at
    }

    /// Reads a `rated` record (the player's event, or a line of the file); nil
    /// without a string `id` and a `rating` 0–9.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let id = record.string(Field.id), !id.isEmpty,
              let rating = record.int(Field.rating), Self.scale.contains(rating) else { return nil }
        self.id = id
        self.rating = rating
        readNote(record)
    }

    /// The record: the event as gif-play writes it, or the line kept in the
    /// ratings file (which always names the provider: ``source``).
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.provider, provider.omittedWhenNil), (Field.id, id), (Field.rating, rating),
                    (Field.tMs, atMs.omittedWhenNil), (Field.ladder, ladder.omittedWhenNil), (Field.rung, rung.omittedWhenNil),
                    (Field.at, at.omittedWhenNil)])
        return record
    }

    /// Whether a GIF rated this is well above a rung of `rungSuds` (0–100):
    /// `margin` (3) or more over the rung's SUDS / 10.
    public func isWellAbove(rungSuds: Int, margin: Int = 3) -> Bool {
        rating * 10 >= rungSuds + margin * 10
    }
}
