import LadderKit
import HistoryKit
import SposureKit

/// Turns `gif-play`'s events into rounds, one record at a time.
///
/// A round runs from a `session` start to its end; a stream normally holds one.
/// Events the rules place nowhere else go to the round open at the time; with
/// none open, to the latest round, and before any round, to the first one (a
/// stream cut at its head still scores). Error records count in the same way,
/// by `code`. Records of other kinds are ignored.
///
/// A round with no end is incomplete. Its last hold has no `hold` record yet
/// (gif-play writes one when the hold ends), so when GIFs or stalls came after
/// the last recorded hold, one more hold is counted, from the first of them to
/// the end of the last: a lower bound of what the person held.
public struct RoundScorer {
    private var rounds: [Round] = []
    private var open = false
    /// Errors and bad lines seen before any round.
    private var early = Round()
    /// The latest `up_ms` of the open round.
    private var lastUp: Int?
    /// Time spans of GIFs and stalls after `lastUp`, for an incomplete round's last hold.
    private var unheld: [(start: Int, end: Int)] = []
    private var sectionIndex: [String: Int] = [:]

    /// A scorer that has seen nothing.
    public init() {}

    /// Takes one record; returns a warning when a record of a known kind is malformed (and skipped).
    public mutating func add(_ record: JSONRecord) -> String? {
        switch record.kind {
        case "session": return session(record)
        case "hold": return hold(record)
        case "shown": return shown(record)
        case "stall": return stall(record)
        case "rating":
            ensureRound()
            return current.ratings.take(record)
        case "rated":
            guard let rating = GIFRating(record: record) else { return "a rated record without a string id and a rating 0–9, skipped" }
            ensureRound()
            current.gifRatings.append(rating)
            return nil
        case "error":
            let code = record.string("code").flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"
            mutateTarget { $0.errorCodes[code, default: 0] += 1 }
            return nil
        default:
            return nil
        }
    }

    /// Counts a line that was not a JSON object.
    public mutating func addBadLine() {
        mutateTarget { $0.badLines += 1 }
    }

    /// Ends the stream and returns every round, in order (empty when no event came).
    public mutating func finish() -> [Round] {
        if open { closeIncomplete() }
        if rounds.isEmpty { return [] }
        return rounds
    }

    // MARK: Events

    private mutating func session(_ record: JSONRecord) -> String? {
        switch record.string("event") {
        case "start":
            if open { closeIncomplete() }
            var round = Round()
            round.started = true
            round.at = record.string("at").flatMap { Timestamp.date($0) == nil ? nil : $0 }
            round.clock = record.string("clock")
            round.ladder = LadderTag(record: record)
            begin(round)
            guard record.has("at"), round.at == nil else { return nil }
            return "a session start whose at \(RemoteText.visible(String((record.jsonText("at") ?? "").prefix(40)))) is no time like 2026-11-21T10:00:00Z: the round is dated when it is scored"
        case "end":
            let time = record.int("t_ms")
            if let time, !Self.span.contains(time) { return "a session end whose t_ms is outside 0 to a year, skipped" }
            ensureRound(reopening: true)
            let reason = record.string("reason")
            current.ended = true
            current.endReason = reason
            if let time { current.durationMs = max(current.durationMs, time) }
            open = false
            unheld = []
            return nil
        default:
            return "a session record whose event is neither start nor end, skipped"
        }
    }

    /// The times a round's events may give, in ms: a round's fields are kept
    /// to a year (``HistoryEntry/maxMs``), so their sums cannot overflow.
    static let span = 0...HistoryEntry.maxMs
    /// A round's time so far and more, held to a year like each event's:
    /// a round the history would refuse is never written.
    static func sum(_ total: Int, _ more: Int) -> Int { min(total + more, HistoryEntry.maxMs) }

    /// The most sections one round keeps, the last of them ``otherSections``.
    static let maxSections = 200
    /// The section the rest are counted in.
    static let otherSections = "(other sections)"

    private mutating func hold(_ record: JSONRecord) -> String? {
        guard let down = record.int("down_ms"), let up = record.int("up_ms"), Self.span.contains(down), Self.span.contains(up), up >= down else {
            return "a hold record needs whole down_ms <= up_ms, each 0 to a year; skipped"
        }
        ensureRound()
        current.holds += 1
        current.longestHoldMs = max(current.longestHoldMs, up - down)
        current.durationMs = max(current.durationMs, up)
        if open {
            let covered = max(lastUp ?? up, up)
            lastUp = covered
            unheld = unheld.filter { $0.end > covered }.map { (start: max($0.start, covered), end: $0.end) }
        }
        return nil
    }

    private mutating func shown(_ record: JSONRecord) -> String? {
        guard let exposed = record.int("exposed_ms"), Self.span.contains(exposed) else {
            return "a shown record needs a whole exposed_ms from 0 to a year; skipped"
        }
        ensureRound()
        let completed = record.bool("completed") == true
        current.exposedMs = Self.sum(current.exposedMs, exposed)
        current.gifsShown += 1
        noteLadder(record)
        if completed { current.gifsCompleted += 1 }
        var name = [record.string("section"), record.string("query")].compactMap { $0 }.first { !$0.isEmpty }
        // A round's sections are bounded: past the most a person could name,
        // the rest are counted together (a hostile stream of 300,000
        // sections made every later report slow and large).
        if let given = name, sectionIndex[given] == nil, current.sections.count >= Self.maxSections - 1 { name = Self.otherSections }
        if let name {
            if let at = sectionIndex[name] {
                current.sections[at].exposedMs = Self.sum(current.sections[at].exposedMs, exposed)
                current.sections[at].gifsShown += 1
                if completed { current.sections[at].gifsCompleted += 1 }
            } else {
                sectionIndex[name] = current.sections.count
                current.sections.append(SectionExposure(
                    name: name, exposedMs: exposed, gifsShown: 1, gifsCompleted: completed ? 1 : 0))
            }
        }
        noteSpan(record.int("start_ms"), record.int("end_ms"))
        return nil
    }

    private mutating func stall(_ record: JSONRecord) -> String? {
        guard let start = record.int("start_ms"), let end = record.int("end_ms"), Self.span.contains(start), Self.span.contains(end),
              end >= start else {
            return "a stall record needs whole start_ms <= end_ms, each 0 to a year; skipped"
        }
        ensureRound()
        current.stalls += 1
        current.stallMs = Self.sum(current.stallMs, end - start)
        noteSpan(start, end)
        return nil
    }

    /// The round's rung: the first tag not mixed in from a mastered rung (a
    /// mixed-in one only until another comes).
    private mutating func noteLadder(_ record: JSONRecord) {
        guard let tag = LadderTag(record: record) else { return }
        if current.ladder == nil || (current.ladder?.mix == true && !tag.mix) {
            current.ladder = tag
        }
    }

    // MARK: Rounds

    /// Makes sure there is a round to count into: the open one, else the latest,
    /// else a new one without a start. `reopening`: a session end with no round
    /// open after an ended one belongs to a new round (its start was lost).
    /// The round being read (there is one: see ``ensureRound(reopening:)``).
    private var current: Round {
        get { rounds[rounds.count - 1] }
        _modify { yield &rounds[rounds.count - 1] }
    }

    private mutating func ensureRound(reopening: Bool = false) {
        if open { return }
        if rounds.isEmpty || reopening { begin(Round()) }
    }

    /// Opens `round` (the first one takes what came before any round).
    private mutating func begin(_ round: Round) {
        var round = round
        if rounds.isEmpty { merge(early, into: &round) }
        rounds.append(round)
        open = true
        lastUp = nil
        unheld = []
        sectionIndex = [:]
    }

    /// Errors and bad lines: the open round, else the latest, else held for the first.
    private mutating func mutateTarget(_ change: (inout Round) -> Void) {
        if rounds.isEmpty {
            change(&early)
        } else {
            change(&current)
        }
    }

    private func merge(_ early: Round, into round: inout Round) {
        round.badLines += early.badLines
        for (code, count) in early.errorCodes { round.errorCodes[code, default: 0] += count }
    }

    private mutating func noteSpan(_ start: Int?, _ end: Int?) {
        guard let start, let end, Self.span.contains(start), Self.span.contains(end), end >= start else { return }
        current.durationMs = max(current.durationMs, end)
        if open && end > (lastUp ?? -1) {
            unheld.append((max(start, lastUp ?? start), end))
        }
    }

    private mutating func closeIncomplete() {
        if let first = unheld.map(\.start).min(), let last = unheld.map(\.end).max() {
            current.holds += 1
            current.longestHoldMs = max(current.longestHoldMs, last - first)
        }
        open = false
        unheld = []
    }
}
