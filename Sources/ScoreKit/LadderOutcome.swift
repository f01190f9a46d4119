/// Where a ladder stands after a round: the rung the rules put it on and
/// what the next round without `--rung` plays.
public struct LadderOutcome: Sendable, Equatable {
    /// The rung before the round (where the rules had it).
    public var rungBefore: Int
    /// The rung the rules put the ladder on after the round.
    public var rung: Int
    /// The next round's rung (a due re-test first) and whether it is a re-test.
    public var nextRung: Int
    public var nextRetest: Bool
    /// Why, in words.
    public var why: String

    /// An outcome.
    public init(rungBefore: Int, rung: Int, nextRung: Int, nextRetest: Bool, why: String) {
        self.rungBefore = rungBefore
        self.rung = rung
        self.nextRung = nextRung
        self.nextRetest = nextRetest
        self.why = why
    }

    /// `up`, `down` or `stay`: how the round moved the ladder.
    public var step: String { rung > rungBefore ? "up" : rung < rungBefore ? "down" : "stay" }
}
