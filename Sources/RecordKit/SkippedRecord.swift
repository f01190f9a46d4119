import SposureKit

/// The `skipped` record of `giphy-pages list`: what a page left out before
/// fetching, or held back, counted (never one record per GIF). gif-play's
/// `skipped` event is another shape of the same kind (``RoundEvent/Skipped``:
/// it has a `reason`, this has a `stage`).
///
/// ```json
/// {"kind":"skipped","stage":"giphy-pages list","query":"cartoon spider","section":"cartoon spider","offset":0,
///  "ladder":"spiders","rung":1,"avoided":3,"off_topic":1,"rated":0,"held":2,"dropped":0,"words":{"spider-man":2,"marvel":1}}
/// ```
public struct SkippedRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "skipped"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let stage = "stage", provider = PageRecord.Field.provider, query = PageRecord.Field.query
        public static let section = PageRecord.Field.section, offset = PageRecord.Field.offset
        public static let ladder = LadderTag.Field.ladder, rung = LadderTag.Field.rung, avoided = "avoided", offTopic = "off_topic"
        public static let rated = "rated", held = "held", dropped = "dropped", words = "words"
        public static let unplayable = "unplayable", formats = "formats"
    }

    /// The stage that left them out, and the page's provider (nil: Giphy), query, section and offset.
    public var stage: String, provider: String?, query: String?, section: String, offset: Int
    /// The page's ladder and rung, on a ladder's page.
    public var ladder: (name: String, rung: Int)?
    /// Left out: marked off-topic, rated well above the rung; held back, and of those left out.
    public var offTopic = 0, rated = 0, held = 0, dropped = 0
    /// Left out for an avoid word, by word (in the order first met).
    public var words: [(word: String, count: Int)] = []
    /// The files of types the player cannot show, by MIME type (Commons: SVG,
    /// TIFF, PDF, video), in the order first met; written only when some were.
    public var formats: [(mime: String, count: Int)] = []

    /// Left out for an avoid word.
    public var avoided: Int { words.reduce(0) { $0 + $1.count } }
    /// The files left out as unplayable.
    public var unplayable: Int { formats.reduce(0) { $0 + $1.count } }

    /// The counts of one page (none yet).
    public init(stage: String, provider: String?, query: String?, section: String, offset: Int, ladder: (name: String, rung: Int)?) {
        (self.stage, self.provider, self.query, self.section, self.offset, self.ladder) = (stage, provider, query, section, offset, ladder)
    }

    /// Reads a `skipped` record of a stage; nil for gif-play's (no `stage`) or without its page's `section` and `offset`.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let stage = record.string(Field.stage), let section = record.string(Field.section),
              let offset = record.int(Field.offset) else { return nil }
        let ladder = record.string(Field.ladder).flatMap { name in record.int(Field.rung).map { (name: name, rung: $0) } }
        self.init(stage: stage, provider: record.string(Field.provider), query: record.string(Field.query), section: section,
                  offset: offset, ladder: ladder)
        (offTopic, rated) = (record.int(Field.offTopic) ?? 0, record.int(Field.rated) ?? 0)
        (held, dropped) = (record.int(Field.held) ?? 0, record.int(Field.dropped) ?? 0)
        if let object = record.object(Field.words) {
            words = object.keys.compactMap { word in object.int(word).map { (word: word, count: $0) } }
        }
        if let object = record.object(Field.formats) {
            formats = object.keys.compactMap { mime in object.int(mime).map { (mime: mime, count: $0) } }
        }
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.stage, stage), (Field.provider, provider.omittedWhenNil),
                    (Field.query, query.omittedWhenNil), (Field.section, section), (Field.offset, offset)])
        if let ladder { record.set([(Field.ladder, ladder.name), (Field.rung, ladder.rung)]) }
        record.set([(Field.avoided, avoided), (Field.offTopic, offTopic), (Field.rated, rated), (Field.held, held),
                    (Field.dropped, dropped)])
        let object = record.setObject(Field.words)
        for (word, count) in words { object.set(word, count) }
        // Only where some were (Commons' files): the records of the GIF APIs stay as they were.
        if unplayable > 0 {
            record.set(Field.unplayable, unplayable)
            let object = record.setObject(Field.formats)
            for (mime, count) in formats { object.set(mime, count) }
        }
        return record
    }

    /// Two records are equal when they write the same record.
    public static func == (lhs: SkippedRecord, rhs: SkippedRecord) -> Bool {
        lhs.record().serialized() == rhs.record().serialized()
    }
}
