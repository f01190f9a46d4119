import RecordKit
import LadderKit
import HistoryKit
import SposureKit

/// A round with what the report adds: its date, the distress ratings, and how
/// it compares with the person's history; the `score` record.
///
/// ```json
/// {"kind":"score","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,"gifs_shown":5,"gifs_completed":4,"stalls":1,"stall_ms":120,"errors":1,"error_codes":{"http_404":1},"sections":{"spiders":{"exposed_ms":8480,"gifs_shown":5,"gifs_completed":4}},"points":104,"personal_best":true,"previous_best_ms":6000,"incomplete":false,"reason":"released","duration_ms":9800,"at":"2026-11-21T10:00:00Z","clock":"real","bad_lines":0,"distress_before":7,"distress_after":4}
/// ```
public struct ScoredRound: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = ScoreRecord.kind
    /// A GIF is new when the last this many rounds of its rung (or query) did not show it.
    public static let recentRounds = 5

    /// The field names (RecordKit's), in the order they are written (the
    /// totals' are ``RoundTotals/Field``, also a section's).
    public typealias Field = ScoreRecord.Field
    /// The field names of a ladder round's `ladder` object.
    public typealias LadderField = ScoreRecord.LadderField

    /// The round's numbers.
    public var round: Round
    /// When it started: the session start's `at`, else `--at`; nil when neither said.
    public var at: String?
    /// The ratings given with `--distress`.
    public var distress: Distress?
    /// Whether its exposure beats every earlier round; nil when the history was not consulted.
    public var personalBest: Bool?
    /// The best exposure of the earlier rounds; nil when there were none or the history was not consulted.
    public var previousBestMs: Int?
    /// Where a ladder round left the ladder; nil off a ladder, or when the ladder or the history could not be read.
    public var ladderOutcome: LadderOutcome?
    /// GIFs rated with a digit key: the round's ratings counted (a record
    /// read back has the count, not the ratings).
    public var gifsRated: Int
    /// GIFs marked off-topic with the x key (a record read back has the count).
    public var gifsOffTopic: Int
    /// The GIFs shown that the last rounds of the same rung (or query) did
    /// not show, counted before this round was kept; nil when not known
    /// (`--no-history`, or the seen file could not be read).
    public var newGIFs: Int?

    /// A scored round; the verdict comes from ``judge(against:)``.
    public init(round: Round, at: String? = nil, distress: Distress? = nil) {
        self.round = round
        self.at = at ?? round.at
        self.distress = distress
        gifsRated = round.gifRatings.count
        gifsOffTopic = round.offTopic.count
    }

    /// Reads a `score` record; nil when it is of another kind or has no
    /// whole `exposed_ms`. A field missing is 0, false or absent.
    ///
    /// What the record does not say is taken as score would have had it:
    /// the round started when the record names its clock (a session start
    /// always does), the session's `at` is the record's, and a ladder
    /// outcome's rung before the round is the rung played. The GIFs rated
    /// come back as ``gifsRated``, the round's ratings empty.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, record.int(RoundTotals.Field.exposedMs) != nil else { return nil }
        var round = Round()
        round.totals = RoundTotals(record: record)
        if let codes = record.object(Field.errorCodes) {
            for code in codes.keys { round.errorCodes[code] = codes.int(code) }
        }
        if let sections = record.object(Field.sections) {
            round.sections = sections.keys.map { name in
                let section = sections.object(name)
                return SectionExposure(name: name, exposedMs: section?.int(RoundTotals.Field.exposedMs) ?? 0,
                                       gifsShown: section?.int(RoundTotals.Field.gifsShown) ?? 0,
                                       gifsCompleted: section?.int(RoundTotals.Field.gifsCompleted) ?? 0)
            }
        }
        round.ended = record.bool(Field.incomplete) != true
        round.endReason = record.string(Field.reason)
        round.durationMs = record.int(Field.durationMs) ?? 0
        round.at = record.string(Field.at)
        round.clock = record.string(Field.clock)
        round.started = round.clock != nil
        round.badLines = record.int(Field.badLines) ?? 0
        var outcome: LadderOutcome?
        if let ladder = record.object(Field.ladder), let name = ladder.string(LadderField.name), let rung = ladder.int(LadderField.rung) {
            round.ladder = LadderTag(ladder: name, rung: rung, rungSuds: ladder.int(LadderField.rungSuds) ?? 0,
                                     retest: ladder.bool(LadderField.retest) ?? false)
            if let step = ladder.string(LadderField.step).flatMap(LadderOutcome.Step.init(rawValue:)),
               let nowOn = ladder.int(LadderField.nowOn), let nextRung = ladder.int(LadderField.nextRung),
               let nextRetest = ladder.bool(LadderField.nextRetest), let why = ladder.string(LadderField.why) {
                outcome = LadderOutcome(rungBefore: rung, rung: nowOn, nextRung: nextRung, nextRetest: nextRetest, why: why, step: step)
            }
        }
        if let ratings = record.object(Field.ratings) { round.ratings = RoundRatings(object: ratings) }
        let before = record.int(Field.distressBefore), after = record.int(Field.distressAfter)
        self.init(round: round, at: round.at, distress: before.flatMap { before in after.flatMap { Distress(before: before, after: $0) } })
        personalBest = record.bool(Field.personalBest)
        previousBestMs = record.int(Field.previousBestMs)
        ladderOutcome = outcome
        gifsRated = record.int(Field.gifsRated) ?? 0
        gifsOffTopic = record.int(Field.gifsOffTopic) ?? 0
        newGIFs = record.int(Field.newGIFs)
        self.round.gifsSkipped = record.int(Field.gifsSkipped) ?? 0
        self.round.credits = PictureCredit.list(in: record, key: Field.credits)
    }

    /// Compares the round with the best exposure of the earlier rounds (nil: there were none).
    ///
    /// A personal best needs some exposure and strictly more than the best before,
    /// so the first round with any exposure is one, and a tie is not.
    public mutating func judge(against previousBest: Int?) {
        previousBestMs = previousBest
        personalBest = round.exposedMs > 0 && round.exposedMs > (previousBest ?? 0)
    }

    /// The `score` record (see docs/score.md for every field).
    public func scoreRecord() -> JSONRecord {
        let record = JSONRecord()
        record.set(Field.kind, Self.kind)
        round.totals.write(to: record)
        record.set(Field.errors, round.errors)
        let codes = record.setObject(Field.errorCodes)
        for (code, count) in round.errorsByCode { codes.set(code, count) }
        let sections = record.setObject(Field.sections)
        for section in round.sections {
            let entry = sections.setObject(section.name)
            entry.set(RoundTotals.Field.exposedMs, section.exposedMs)
            entry.set(RoundTotals.Field.gifsShown, section.gifsShown)
            entry.set(RoundTotals.Field.gifsCompleted, section.gifsCompleted)
        }
        record.set(Field.points, round.points)
        record.set(Field.personalBest, personalBest)
        record.set(Field.previousBestMs, previousBestMs)
        record.set(Field.incomplete, round.incomplete)
        record.set(Field.reason, round.endReason)
        record.set(Field.durationMs, round.durationMs)
        record.set(Field.at, at)
        record.set(Field.clock, round.clock)
        record.set(Field.badLines, round.badLines)
        // A rating the player asked counts alone too (the history line keeps it
        // so): Ctrl-C at the questions after leaves a before without an after.
        record.set(Field.distressBefore, distress?.before ?? round.ratings.sudsBefore)
        record.set(Field.distressAfter, distress?.after ?? round.ratings.sudsAfter)
        // Ladder rounds and rated rounds add fields at the end; other records are as before.
        if let tag = round.ladder {
            let ladder = record.setObject(Field.ladder)
            ladder.set(LadderField.name, tag.ladder)
            ladder.set(LadderField.rung, tag.rung)
            ladder.set(LadderField.rungSuds, tag.rungSuds)
            ladder.set(LadderField.retest, tag.retest)
            if let outcome = ladderOutcome {
                ladder.set(LadderField.step, outcome.step.rawValue)
                ladder.set(LadderField.nowOn, outcome.rung)
                ladder.set(LadderField.nextRung, outcome.nextRung)
                ladder.set(LadderField.nextRetest, outcome.nextRetest)
                ladder.set(LadderField.why, outcome.why)
            }
        }
        if !round.ratings.isEmpty { round.ratings.write(to: record.setObject(Field.ratings)) }
        if gifsRated > 0 { record.set(Field.gifsRated, gifsRated) }
        if round.gifsSkipped > 0 { record.set(Field.gifsSkipped, round.gifsSkipped) }
        if gifsOffTopic > 0 { record.set(Field.gifsOffTopic, gifsOffTopic) }
        if let newGIFs { record.set(Field.newGIFs, newGIFs) }
        PictureCredit.write(round.credits, to: record, key: Field.credits)
        return record
    }

    /// The round as the history keeps it, dated `at`, else `fallbackAt` (the time of scoring).
    public func historyEntry(fallbackAt: String) -> HistoryEntry {
        var entry = HistoryEntry(
            at: at ?? fallbackAt,
            totals: round.totals,
            errors: round.errors,
            points: round.points,
            incomplete: round.incomplete,
            durationMs: round.durationMs,
            sections: round.sections.map { HistoryEntry.Section(name: $0.name, exposedMs: $0.exposedMs) },
            distress: distress,
            ladder: round.ladder.map { LadderTag(ladder: $0.ladder, rung: $0.rung, rungSuds: $0.rungSuds, retest: $0.retest) },
            ratings: distress == nil ? round.ratings : RoundRatings(expectPct: round.ratings.expectPct, peak: round.ratings.peak,
                                                                    happened: round.ratings.happened),
            reason: round.endReason)
        entry.credits = round.credits
        return entry
    }
}
