import SposureKit

/// A GIF the person marked off-topic with the `x` key while it played (a
/// cartoon hero in a spiders round): the `off_topic` record, both gif-play's
/// event (with the session time) and a line of the ratings file (with the
/// ladder, the query and the date), kept beside the ratings.
///
/// ```json
/// {"kind":"off_topic","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","title":"Spider-Man swings","t_ms":4200}
/// {"kind":"off_topic","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","title":"Spider-Man swings","query":"cartoon spider","ladder":"spiders","rung":0,"at":"2026-11-21T10:00:00Z"}
/// ```
public struct OffTopicMark: GIFNote, Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "off_topic"
    /// The field names (the events').
    public typealias Field = RoundEvent.Field

    /// The API the GIF came from, when the record names one (a Giphy GIF's may not).
    public var provider: String?
    /// Its id there.
    public var id: String
    /// Its title, as the stream carried it (already cleaned of escapes).
    public var title: String?
    /// When, in ms of the session (the player's event).
    public var atMs: Int?
    /// The search words it came from, when known.
    public var query: String?
    /// The ladder it was marked on, when any.
    public var ladder: String?
    /// The rung, when on a ladder.
    public var rung: Int?
    /// When the round started (the file's line).
    public var at: String?
    /// The clip's perceptual hashes, as its `shown` gives them (`hash`,
    /// `hash_dct`), when gif-play made them: a re-upload under another id is
    /// known by them (gif-play skips it).
    public var hash: String?, hashDCT: String?

    /// A mark.
    public init(provider: String?, id: String, title: String? = nil, atMs: Int? = nil, query: String? = nil,
                ladder: String? = nil, rung: Int? = nil, at: String? = nil, hash: String? = nil, hashDCT: String? = nil) {
        self.provider = provider
        self.id = id
        self.title = title
        self.atMs = atMs
        self.query = query
        self.ladder = ladder
        self.rung = rung
        self.at = at
        self.hash = hash
        self.hashDCT = hashDCT
    }

    /// Reads an `off_topic` record (the event or a line of the file); nil without a string `id`.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let id = record.string(Field.id), !id.isEmpty else { return nil }
        self.id = id
        title = record.string(Field.title)
        query = record.string(Field.query)
        hash = RoundEvent.readHash(record).hash
        hashDCT = RoundEvent.readHash(record, RoundEvent.Field.hashDCT).hash
        readNote(record)
    }

    /// The record: the event as gif-play writes it, or the line kept in the ratings file.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.provider, provider.omittedWhenNil), (Field.id, id), (Field.title, title.omittedWhenNil),
                    (Field.tMs, atMs.omittedWhenNil), (Field.query, query.omittedWhenNil), (Field.ladder, ladder.omittedWhenNil),
                    (Field.rung, rung.omittedWhenNil), (Field.at, at.omittedWhenNil), (Field.hash, hash.omittedWhenNil),
                    (Field.hashDCT, hashDCT.omittedWhenNil)])
        return record
    }
}
