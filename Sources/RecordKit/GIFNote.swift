import SposureKit

/// What a rating (``GIFRating``) and an off-topic mark (``OffTopicMark``)
/// share: a GIF named by provider and id, noted during a round, then filed
/// in the ratings file with the round's ladder, rung and date instead of the
/// session time.
public protocol GIFNote {
    /// The API the GIF came from, when the record names one.
    var provider: String? { get set }
    /// When, in ms of the session (the player's event).
    var atMs: Int? { get set }
    /// The ladder, when on one.
    var ladder: String? { get set }
    /// The rung, when on a ladder.
    var rung: Int? { get set }
    /// When the round started (the file's line).
    var at: String? { get set }
}

extension GIFNote {
    /// The provider, a missing one being Giphy's (a record that names none).
    public var source: String { provider ?? "giphy" }

    /// The line the ratings file keeps: it names its provider and its date,
    /// not the session's time; the round's ladder and rung where it has none.
    public func filed(ladder: String?, rung: Int?, at: String) -> Self {
        var kept = self
        kept.provider = source
        kept.atMs = nil
        kept.ladder = self.ladder ?? ladder
        kept.rung = self.rung ?? rung
        kept.at = self.at ?? at
        return kept
    }

    /// Reads the fields every note has from `record`.
    mutating func readNote(_ record: JSONRecord) {
        provider = record.string(RoundEvent.Field.provider)
        atMs = record.int(RoundEvent.Field.tMs)
        ladder = record.string(RoundEvent.Field.ladder)
        rung = record.int(RoundEvent.Field.rung)
        at = record.string(RoundEvent.Field.at)
    }
}
