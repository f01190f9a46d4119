import SposureKit

extension RoundEvent {
    /// The field names, spelled once.
    public enum Field {
        public static let event = "event", at = "at", clock = "clock", hold = "hold", renderer = "renderer"
        public static let symbols = "symbols"
        public static let cols = "cols", rows = "rows", onRelease = "on_release", tMs = "t_ms", reason = "reason"
        public static let startMs = "start_ms", endMs = "end_ms", downMs = "down_ms", upMs = "up_ms"
        public static let id = "id", section = "section", query = "query", exposedMs = "exposed_ms"
        public static let frames = "frames", completed = "completed", provider = "provider", hash = "hash", like = "like"
        public static let hashDCT = "hash_dct"
        /// A rated GIF's digit, an off-topic GIF's title, and the ratings file's ladder and rung (``LadderTag/Field``'s).
        public static let rating = "rating", title = "title", ladder = LadderTag.Field.ladder, rung = LadderTag.Field.rung
    }

    /// The kinds of record an event is.
    public static let kinds: Set<String> = ["session", "hold", "shown", "stall", "rated", "rating", "skipped", OffTopicMark.kind]

    /// The event as the record written on stdout (docs/stream-format.md).
    public var record: JSONRecord {
        let record = JSONRecord()
        switch self {
        case .sessionStart(let start):
            record.set("kind", "session")
            record.set(Field.event, "start")
            if let at = start.at { record.set(Field.at, at) }
            if let clock = start.clock { record.set(Field.clock, clock) }
            if let hold = start.hold { record.set(Field.hold, hold) }
            if let renderer = start.renderer { record.set(Field.renderer, renderer) }
            if let symbols = start.symbols { record.set(Field.symbols, symbols) }
            if let cols = start.cols { record.set(Field.cols, cols) }
            if let rows = start.rows { record.set(Field.rows, rows) }
            if let onRelease = start.onRelease { record.set(Field.onRelease, onRelease) }
            start.ladder?.write(to: record)
        case .stall(let start, let end):
            record.set("kind", "stall")
            record.set(Field.startMs, start)
            record.set(Field.endMs, end)
        case .hold(let down, let up):
            record.set("kind", "hold")
            record.set(Field.downMs, down)
            record.set(Field.upMs, up)
        case .shown(let shown):
            record.set("kind", "shown")
            record.set(Field.id, shown.id)
            record.set(Field.section, shown.section)
            if let query = shown.query { record.set(Field.query, query) }
            record.set(Field.startMs, shown.startMs)
            record.set(Field.endMs, shown.endMs)
            record.set(Field.exposedMs, shown.exposedMs)
            record.set(Field.frames, shown.frames)
            record.set(Field.completed, shown.completed)
            if let provider = shown.provider { record.set(Field.provider, provider) }
            shown.ladder?.write(to: record)
            if let hash = shown.hash { record.set(Field.hash, hash) }
            if let hash = shown.hashDCT { record.set(Field.hashDCT, hash) }
            shown.credit?.write(to: record)
        case .skipped(let skipped):
            record.set("kind", "skipped")
            record.set(Field.reason, skipped.reason)
            if let provider = skipped.provider { record.set(Field.provider, provider) }
            record.set(Field.id, skipped.id)
            if let like = skipped.like { record.set(Field.like, like) }
            record.set(Field.tMs, skipped.atMs)
            if let hash = skipped.hash { record.set(Field.hash, hash) }
            if let hash = skipped.hashDCT { record.set(Field.hashDCT, hash) }
        case .offTopic(let mark):
            return mark.record()
        case .sessionEnd(let at, let reason):
            record.set("kind", "session")
            record.set(Field.event, "end")
            if let at { record.set(Field.tMs, at) }
            if let reason { record.set(Field.reason, reason.rawValue) }
        case .rated(let rated):
            return rated.record()
        case .rating(let rating):
            record.set("kind", "rating")
            rating.write(to: record)
        }
        return record
    }

    /// The times an event may give, in ms: a round's fields are kept to a
    /// year, so their sums cannot overflow.
    public static let span = 0...31_536_000_000

    /// Reads an event record: the event, nil for a record of another kind,
    /// or why it is skipped. A `rating` whose answers are partly bad is read
    /// with the good ones, and `warning` names the rest.
    public static func read(_ record: JSONRecord) -> (event: RoundEvent?, warning: String?) {
        switch record.kind {
        case "session": return readSession(record)
        case "hold":
            guard let down = record.int(Field.downMs), let up = record.int(Field.upMs), span.contains(down), span.contains(up), up >= down else {
                return (nil, "a hold record needs whole down_ms <= up_ms, each 0 to a year; skipped")
            }
            return (.hold(downMs: down, upMs: up), nil)
        case "shown":
            guard let exposed = record.int(Field.exposedMs), span.contains(exposed) else {
                return (nil, "a shown record needs a whole exposed_ms from 0 to a year; skipped")
            }
            // The rest is read as it comes: a time out of range only leaves
            // the round's length alone (-1: none); a hash that is not one is left out.
            let (hash, problem) = readHash(record)
            let (hashDCT, dctProblem) = readHash(record, Field.hashDCT)
            return (.shown(Shown(
                id: record.string(Field.id) ?? "", section: record.string(Field.section) ?? "", query: record.string(Field.query),
                startMs: record.int(Field.startMs) ?? -1, endMs: record.int(Field.endMs) ?? -1, exposedMs: exposed,
                frames: record.int(Field.frames) ?? 0, completed: record.bool(Field.completed) == true,
                ladder: LadderTag(record: record), provider: record.string(Field.provider), hash: hash, hashDCT: hashDCT,
                credit: PictureCredit(record: record))),
                    (problem ?? dctProblem).map { "a shown record's \($0); the GIF is counted without it" })
        case "skipped":
            guard let id = record.string(Field.id), !id.isEmpty, let at = record.int(Field.tMs), span.contains(at) else {
                return (nil, "a skipped record needs a string id and a whole t_ms from 0 to a year; skipped")
            }
            let (hash, problem) = readHash(record)
            let (hashDCT, dctProblem) = readHash(record, Field.hashDCT)
            return (.skipped(Skipped(reason: record.string(Field.reason) ?? "", id: id, provider: record.string(Field.provider),
                                     like: record.string(Field.like), atMs: at, hash: hash, hashDCT: hashDCT)),
                    (problem ?? dctProblem).map { "a skipped record's \($0); left out" })
        case OffTopicMark.kind:
            guard let mark = OffTopicMark(record: record) else { return (nil, "an off_topic record without a string id, skipped") }
            if let at = mark.atMs, !span.contains(at) { return (nil, "an off_topic record whose t_ms is outside 0 to a year, skipped") }
            return (.offTopic(mark), nil)
        case "stall":
            guard let start = record.int(Field.startMs), let end = record.int(Field.endMs), span.contains(start), span.contains(end),
                  end >= start else {
                return (nil, "a stall record needs whole start_ms <= end_ms, each 0 to a year; skipped")
            }
            return (.stall(startMs: start, endMs: end), nil)
        case "rated":
            guard let rating = GIFRating(record: record) else { return (nil, "a rated record without a string id and a rating 0–9, skipped") }
            return (.rated(rating), nil)
        case "rating":
            let (given, problems) = RoundRating.read(record)
            guard let rating = given else { return (nil, "a rating record whose when is neither before nor after, skipped") }
            // Only the bad answers go; the rest of the record is kept.
            let warning = problems.isEmpty ? nil
                : "a rating record: \(problems.joined(separator: ", ")); \(problems.count == 1 ? "that answer" : "those answers") skipped"
            return (.rating(rating), warning)
        default:
            return (nil, nil)
        }
    }

    /// A record's `hash` (or `field`), when it is 16 hex digits, else what is wrong with it.
    static func readHash(_ record: JSONRecord, _ field: String = Field.hash) -> (hash: String?, problem: String?) {
        guard record.has(field) else { return (nil, nil) }
        if let text = record.string(field), text.utf8.count == 16,
           text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }) {
            return (text.lowercased(), nil)
        }
        let shown = RemoteText.visible(String((record.jsonText(field) ?? "").prefix(40)))
        return (nil, "\(field) \(shown) is not 16 hex digits")
    }

    private static func readSession(_ record: JSONRecord) -> (event: RoundEvent?, warning: String?) {
        switch record.string(Field.event) {
        case "start":
            return (.sessionStart(SessionStart(
                at: record.string(Field.at), clock: record.string(Field.clock), hold: record.string(Field.hold),
                renderer: record.string(Field.renderer), symbols: record.string(Field.symbols), cols: record.int(Field.cols), rows: record.int(Field.rows),
                onRelease: record.string(Field.onRelease), ladder: LadderTag(record: record))), nil)
        case "end":
            let time = record.int(Field.tMs)
            if let time, !span.contains(time) { return (nil, "a session end whose t_ms is outside 0 to a year, skipped") }
            return (.sessionEnd(atMs: time, reason: record.string(Field.reason).map(EndReason.init(rawValue:))), nil)
        default:
            return (nil, "a session record whose event is neither start nor end, skipped")
        }
    }
}
