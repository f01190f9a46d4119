import FoundationEssentials

/// Where a ladder stands, as pure functions over its rounds (oldest first):
/// the rules replayed, and what one more round does to it. The history's
/// reading (HistoryKit) gives the rounds; nothing here reads a file.
public enum LadderStanding {
    /// `rounds` by date, rounds of the same date in the order given.
    public static func oldestFirst(_ rounds: [LadderRound]) -> [LadderRound] {
        rounds.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// The rules replayed over `rounds` (the ladder's, oldest first).
    public static func progress(_ ladder: Ladder, rounds: [LadderRound]) -> LadderProgress {
        LadderProgress(rounds: rounds, rungCount: ladder.rungs.count, rules: ladder.rules)
    }

    /// Where `round` (a round of `ladder`; nil: a round off it) leaves the
    /// ladder, after its `earlier` rounds (oldest first), at `now`.
    public static func outcome(_ ladder: Ladder, earlier: [LadderRound], round: LadderRound?, now: Date) -> LadderOutcome {
        let before = progress(ladder, rounds: earlier)
        let after = progress(ladder, rounds: round.map { oldestFirst(earlier + [$0]) } ?? earlier)
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
