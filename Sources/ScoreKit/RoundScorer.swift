import RecordKit
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

    /// Takes one record; returns a warning when a record of a known kind is
    /// malformed (and skipped). Events are read by their one type,
    /// ``RoundEvent/read(_:)``; error records count by `code`.
    public mutating func add(_ record: JSONRecord) -> String? {
        if record.kind == ErrorRecord.kind {
            let code = record.string(ErrorRecord.Field.code).flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"
            let ofGIF = ["fetch-images", "gif-play"].contains(record.string(ErrorRecord.Field.stage) ?? "")
            mutateTarget {
                $0.errorCodes[code, default: 0] += 1
                if ofGIF { $0.gifErrorCodes[code, default: 0] += 1 }
            }
            return nil
        }
        let (event, warning) = RoundEvent.read(record)
        guard let event else { return warning }
        switch event {
        case .sessionStart(let start): return begin(start, record)
        case .sessionEnd(let time, let reason): end(at: time, reason: reason)
        case .hold(let down, let up): hold(down: down, up: up)
        case .shown(let shown): self.shown(shown)
        case .stall(let start, let end): stall(start: start, end: end)
        case .rating(let rating):
            ensureRound()
            current.ratings.take(rating)
        case .rated(let rating):
            ensureRound()
            current.gifRatings.append(rating)
        case .offTopic(let mark):
            ensureRound()
            current.offTopic.append(mark)
        case .skipped:
            ensureRound()
            current.gifsSkipped += 1
        }
        return warning
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

    private mutating func begin(_ start: RoundEvent.SessionStart, _ record: JSONRecord) -> String? {
        if open { closeIncomplete() }
        var round = Round()
        round.started = true
        round.at = start.at.flatMap { Timestamp.date($0) == nil ? nil : $0 }
        round.clock = start.clock
        round.ladder = start.ladder
        begin(round)
        guard record.has(RoundEvent.Field.at), round.at == nil else { return nil }
        return "a session start whose at \(RemoteText.visible(String((record.jsonText(RoundEvent.Field.at) ?? "").prefix(40)))) is no time like 2026-11-21T10:00:00Z: the round is dated when it is scored"
    }

    private mutating func end(at time: Int?, reason: EndReason?) {
        ensureRound(reopening: true)
        current.ended = true
        current.endReason = reason?.rawValue
        current.heldAtEnd = time != nil && current.lastUpMs == time
        if let time { current.durationMs = max(current.durationMs, time) }
        open = false
        unheld = []
    }

    /// The times a round's events may give, in ms: a round's fields are kept
    /// to a year (``HistoryEntry/maxMs``), so their sums cannot overflow.
    static let span = RoundEvent.span
    /// A round's time so far and more, held to a year like each event's:
    /// a round the history would refuse is never written.
    static func sum(_ total: Int, _ more: Int) -> Int { min(total + more, HistoryEntry.maxMs) }

    /// The most GIFs of one round kept as seen (hours of play show fewer).
    static let maxSeen = 2000

    /// The most sections one round keeps, the last of them ``otherSections``.
    static let maxSections = 200
    /// The section the rest are counted in.
    static let otherSections = "(other sections)"

    private mutating func hold(down: Int, up: Int) {
        ensureRound()
        current.holds += 1
        current.longestHoldMs = max(current.longestHoldMs, up - down)
        current.durationMs = max(current.durationMs, up)
        current.lastUpMs = max(current.lastUpMs ?? up, up)
        if open {
            let covered = max(lastUp ?? up, up)
            lastUp = covered
            unheld = unheld.filter { $0.end > covered }.map { (start: max($0.start, covered), end: $0.end) }
        }
    }

    private mutating func shown(_ shown: RoundEvent.Shown) {
        ensureRound()
        let completed = shown.completed
        let exposed = shown.exposedMs
        current.exposedMs = Self.sum(current.exposedMs, exposed)
        current.gifsShown += 1
        noteLadder(shown.ladder)
        if completed { current.gifsCompleted += 1 }
        // What seen.ndjson keeps: a round is bounded as its sections are.
        if !shown.id.isEmpty, current.seen.count < Self.maxSeen {
            current.seen.append(SeenRound.GIF(provider: shown.provider ?? "giphy", id: shown.id, hash: shown.hash, hashDCT: shown.hashDCT))
        }
        if let credit = shown.credit { current.credits = PictureCredit.adding(credit, to: current.credits) }
        if current.query == nil { current.query = shown.query.flatMap { $0.isEmpty ? nil : $0 } }
        if current.provider == nil { current.provider = shown.provider ?? "giphy" }
        var name = [shown.section, shown.query].compactMap { $0 }.first { !$0.isEmpty }
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
        noteSpan(shown.startMs, shown.endMs)
    }

    private mutating func stall(start: Int, end: Int) {
        ensureRound()
        current.stalls += 1
        current.stallMs = Self.sum(current.stallMs, end - start)
        noteSpan(start, end)
    }

    /// The round's rung: the first tag not mixed in from a mastered rung (a
    /// mixed-in one only until another comes).
    private mutating func noteLadder(_ tag: LadderTag?) {
        guard let tag else { return }
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
        for (code, count) in early.gifErrorCodes { round.gifErrorCodes[code, default: 0] += count }
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
