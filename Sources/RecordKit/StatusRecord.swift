import SposureKit

/// The `status` record: where a person stands, as `sposure` prints it for a
/// program (docs/stream-format.md, front-door records). FrontDoorKit's
/// `Standing` works the values out; this type writes them and reads them back.
///
/// ```json
/// {"kind":"status","ladders":{"spiders":{"title":"Spiders","rung":3,…,"last_round":{…}}},"rounds":9,…,"next":"sposure play --ladder spiders"}
/// ```
public struct StatusRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "status"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let kind = "kind", ladders = "ladders", rounds = "rounds", historyUnreadable = "history_unreadable"
        public static let problems = "problems", roundsToday = "rounds_today", exposedMsToday = "exposed_ms_today"
        public static let streakDays = "streak_days", provider = "provider", keys = "keys", terminal = "terminal", next = "next"
        /// A ladder's (`rounds` too).
        public static let title = "title", rung = "rung", rungs = "rungs", complete = "complete", nextRung = "next_rung"
        public static let retest = "retest", why = "why", query = "query", due = "due", lastRound = "last_round"
        /// A ladder's last round's.
        public static let at = "at", sudsBefore = "suds_before", peak = "peak", sudsAfter = "suds_after"
        /// An API key's.
        public static let variable = "variable", isSet = "set", rate = "rate", callsLeft = "calls_left"
        /// The terminal's.
        public static let term = "term", colorterm = "colorterm"
    }

    /// A ladder with rounds in the history.
    public struct Ladder: Sendable, Equatable {
        public var name: String, title: String, rung: Int, rungs: Int, complete: Bool
        /// What the next round plays, and why.
        public var nextRung: Int, retest: Bool, why: String, query: String
        /// The mastered rungs whose re-test is due, and since when (UTC).
        public var due: [Due]
        public var rounds: Int
        /// The last round's date and ratings.
        public var lastAt: String, sudsBefore: Int?, peak: Int?, sudsAfter: Int?

        /// A ladder's line.
        public init(name: String, title: String, rung: Int, rungs: Int, complete: Bool, nextRung: Int, retest: Bool,
                    why: String, query: String, due: [Due], rounds: Int, lastAt: String, sudsBefore: Int?, peak: Int?,
                    sudsAfter: Int?) {
            (self.name, self.title, self.rung, self.rungs, self.complete) = (name, title, rung, rungs, complete)
            (self.nextRung, self.retest, self.why, self.query, self.due) = (nextRung, retest, why, query, due)
            (self.rounds, self.lastAt, self.sudsBefore, self.peak, self.sudsAfter) = (rounds, lastAt, sudsBefore, peak, sudsAfter)
        }
    }

    /// A rung whose re-test is due, since `at`.
    public struct Due: Sendable, Equatable {
        public var rung: Int, at: String
        /// A due re-test.
        public init(rung: Int, at: String) { (self.rung, self.at) = (rung, at) }
    }

    /// An API's key: its variable, whether it is set, and the allowance.
    public struct Key: Sendable, Equatable {
        public var provider: String, variable: String, isSet: Bool, rate: String, callsLeft: Int?
        /// A key's line.
        public init(provider: String, variable: String, isSet: Bool, rate: String, callsLeft: Int?) {
            (self.provider, self.variable, self.isSet, self.rate, self.callsLeft) = (provider, variable, isSet, rate, callsLeft)
        }
    }

    public var ladders: [Ladder] = []
    public var rounds = 0
    public var historyUnreadable = false
    public var problems: [String] = []
    public var roundsToday = 0, exposedMsToday = 0, streakDays = 0
    /// The API a round uses; nil: none.
    public var provider: String?
    public var keys: [Key] = []
    public var term = "", colorterm = ""
    /// The one command to type next.
    public var next = ""

    /// A standing with nothing in it yet.
    public init() {}

    /// Reads a `status` record; nil when it is of another kind. A field
    /// missing (or of another type) reads as nothing: zero, empty, false.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind else { return nil }
        if let object = record.object(Field.ladders) {
            ladders = object.keys.compactMap { name in
                guard let line = object.object(name) else { return nil }
                let last = line.object(Field.lastRound)
                let due = line.object(Field.due)
                return Ladder(name: name, title: line.string(Field.title) ?? "", rung: line.int(Field.rung) ?? 0,
                              rungs: line.int(Field.rungs) ?? 0, complete: line.bool(Field.complete) ?? false,
                              nextRung: line.int(Field.nextRung) ?? 0, retest: line.bool(Field.retest) ?? false,
                              why: line.string(Field.why) ?? "", query: line.string(Field.query) ?? "",
                              due: (due?.keys ?? []).compactMap { key in Int(key).map { Due(rung: $0, at: due?.string(key) ?? "") } },
                              rounds: line.int(Field.rounds) ?? 0, lastAt: last?.string(Field.at) ?? "",
                              sudsBefore: last?.int(Field.sudsBefore), peak: last?.int(Field.peak), sudsAfter: last?.int(Field.sudsAfter))
            }
        }
        rounds = record.int(Field.rounds) ?? 0
        historyUnreadable = record.bool(Field.historyUnreadable) ?? false
        problems = record.stringElements(Field.problems)
        (roundsToday, exposedMsToday) = (record.int(Field.roundsToday) ?? 0, record.int(Field.exposedMsToday) ?? 0)
        streakDays = record.int(Field.streakDays) ?? 0
        provider = record.string(Field.provider)
        if let object = record.object(Field.keys) {
            keys = object.keys.compactMap { name in
                object.object(name).map {
                    Key(provider: name, variable: $0.string(Field.variable) ?? "", isSet: $0.bool(Field.isSet) ?? false,
                        rate: $0.string(Field.rate) ?? "", callsLeft: $0.int(Field.callsLeft))
                }
            }
        }
        let terminal = record.object(Field.terminal)
        (term, colorterm) = (terminal?.string(Field.term) ?? "", terminal?.string(Field.colorterm) ?? "")
        next = record.string(Field.next) ?? ""
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set(Field.kind, Self.kind)
        let ladderObject = record.setObject(Field.ladders)
        for line in ladders {
            let object = ladderObject.setObject(line.name)
            object.set([(Field.title, line.title), (Field.rung, line.rung), (Field.rungs, line.rungs),
                        (Field.complete, line.complete), (Field.nextRung, line.nextRung), (Field.retest, line.retest),
                        (Field.why, line.why), (Field.query, line.query)])
            let due = object.setObject(Field.due)
            for item in line.due { due.set(String(item.rung), item.at) }
            object.set(Field.rounds, line.rounds)
            object.setObject(Field.lastRound).set([(Field.at, line.lastAt), (Field.sudsBefore, line.sudsBefore),
                                                   (Field.peak, line.peak), (Field.sudsAfter, line.sudsAfter)])
        }
        record.set(Field.rounds, rounds)
        if historyUnreadable { record.set(Field.historyUnreadable, true) }
        if !problems.isEmpty { record.set(Field.problems, strings: problems) }
        record.set([(Field.roundsToday, roundsToday), (Field.exposedMsToday, exposedMsToday),
                    (Field.streakDays, streakDays), (Field.provider, provider)])
        let keyObject = record.setObject(Field.keys)
        for key in keys {
            keyObject.setObject(key.provider).set([(Field.variable, key.variable), (Field.isSet, key.isSet),
                                                   (Field.rate, key.rate), (Field.callsLeft, key.callsLeft)])
        }
        record.setObject(Field.terminal).set([(Field.term, term), (Field.colorterm, colorterm)])
        record.set(Field.next, next)
        return record
    }
}
