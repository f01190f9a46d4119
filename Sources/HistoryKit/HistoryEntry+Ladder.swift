import FoundationEssentials
import Glibc
import LadderKit

extension HistoryEntry {
    /// The round as the ladder rules see it; nil when it was not on a ladder or has no readable date.
    public var ladderRound: LadderRound? {
        guard let ladder, let date = Timestamp.date(at) else { return nil }
        return LadderRound(at: date, rung: ladder.rung, exposedMs: totals.exposedMs, endReason: reason,
                           peak: ratings.peak, sudsAfter: sudsAfter, retest: ladder.retest)
    }
}

/// The history seen from a ladder: its rounds, and where the rules put it.
public enum LadderStanding {
    /// The rounds of the ladder `name`, oldest first.
    public static func rounds(of name: String, in entries: [HistoryEntry]) -> [LadderRound] {
        oldestFirst(entries.filter { $0.ladder?.ladder == name }.compactMap(\.ladderRound))
    }

    /// `rounds` by date, rounds of the same date in the order given.
    static func oldestFirst(_ rounds: [LadderRound]) -> [LadderRound] {
        rounds.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// The rules replayed over `rounds` (the ladder's, oldest first).
    public static func progress(_ ladder: Ladder, rounds: [LadderRound]) -> LadderProgress {
        LadderProgress(rounds: rounds, rungCount: ladder.rungs.count, rules: ladder.rules)
    }
}

extension LadderStanding {
    /// Where `entry` (a round of `ladder`) leaves the ladder, after its `earlier`
    /// rounds (oldest first), at `now`.
    public static func outcome(_ ladder: Ladder, earlier: [LadderRound], entry: HistoryEntry, now: Date) -> LadderOutcome {
        let before = progress(ladder, rounds: earlier)
        let mine = entry.ladder?.ladder == ladder.name ? entry.ladderRound : nil
        let after = progress(ladder, rounds: mine.map { oldestFirst(earlier + [$0]) } ?? earlier)
        let next = after.next(now: now, rules: ladder.rules)
        let moved = after.steps.count > before.steps.count ? after.steps.last : nil
        // The step is the rule that moved the ladder, not a comparison of rung
        // numbers: fear back on a lower rung's re-test goes down in number, yet is no step down.
        let step: LadderOutcome.Step
        switch moved?.kind {
        case .up: step = .up
        case .down: step = .down
        case .back: step = .back
        case nil: step = after.complete && !before.complete ? .complete : .stay
        }
        return LadderOutcome(rungBefore: before.rung, rung: after.rung, nextRung: next.rung, nextRetest: next.retest,
                             why: moved?.why ?? next.why, step: step)
    }
}
