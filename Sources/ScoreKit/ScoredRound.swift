import LadderKit
import HistoryKit
import SposureKit

/// A round with what the report adds: its date, the distress ratings, and how
/// it compares with the person's history.
public struct ScoredRound: Sendable, Equatable {
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

    /// A scored round; the verdict comes from ``judge(against:)``.
    public init(round: Round, at: String? = nil, distress: Distress? = nil) {
        self.round = round
        self.at = at ?? round.at
        self.distress = distress
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
        record.set("kind", "score")
        round.totals.write(to: record)
        record.set("errors", round.errors)
        let codes = record.setObject("error_codes")
        for (code, count) in round.errorsByCode { codes.set(code, count) }
        let sections = record.setObject("sections")
        for section in round.sections {
            let entry = sections.setObject(section.name)
            entry.set("exposed_ms", section.exposedMs)
            entry.set("gifs_shown", section.gifsShown)
            entry.set("gifs_completed", section.gifsCompleted)
        }
        record.set("points", round.points)
        record.set("personal_best", personalBest)
        record.set("previous_best_ms", previousBestMs)
        record.set("incomplete", round.incomplete)
        record.set("reason", round.endReason)
        record.set("duration_ms", round.durationMs)
        record.set("at", at)
        record.set("clock", round.clock)
        record.set("bad_lines", round.badLines)
        record.set("distress_before", distress?.before)
        record.set("distress_after", distress?.after)
        // Ladder rounds and rated rounds add fields at the end; other records are as before.
        if let tag = round.ladder {
            let ladder = record.setObject("ladder")
            ladder.set("name", tag.ladder)
            ladder.set("rung", tag.rung)
            ladder.set("rung_suds", tag.rungSuds)
            ladder.set("retest", tag.retest)
            if let outcome = ladderOutcome {
                ladder.set("step", outcome.step.rawValue)
                ladder.set("now_on", outcome.rung)
                ladder.set("next_rung", outcome.nextRung)
                ladder.set("next_retest", outcome.nextRetest)
                ladder.set("why", outcome.why)
            }
        }
        if !round.ratings.isEmpty { round.ratings.write(to: record.setObject("ratings")) }
        if !round.gifRatings.isEmpty { record.set("gifs_rated", round.gifRatings.count) }
        return record
    }

    /// The round as the history keeps it, dated `at`, else `fallbackAt` (the time of scoring).
    public func historyEntry(fallbackAt: String) -> HistoryEntry {
        HistoryEntry(
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
    }
}
