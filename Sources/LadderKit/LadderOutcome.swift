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
    /// What the round did to the ladder.
    public var step: Step

    /// What a round did to the ladder (the `step` of a score record).
    public enum Step: String, Sendable, Equatable {
        /// Up a rung: the last counted rounds ended calm.
        case up
        /// Down a rung: rounds let go early at a high peak.
        case down
        /// Back to a mastered rung (the one played), to master again: fear came back on its re-test.
        case back
        /// The top rung mastered: the ladder is climbed.
        case complete
        /// Nothing moved.
        case stay
    }

    /// An outcome; `step` by default from the rungs (up, down or stay).
    public init(rungBefore: Int, rung: Int, nextRung: Int, nextRetest: Bool, why: String, step: Step? = nil) {
        self.rungBefore = rungBefore
        self.rung = rung
        self.nextRung = nextRung
        self.nextRetest = nextRetest
        self.why = why
        self.step = step ?? (rung > rungBefore ? .up : rung < rungBefore ? .down : .stay)
    }
}
