/// How key autorepeat is read as a hold when the terminal reports no releases.
public struct RepeatThresholds: Sendable, Equatable {
    /// A press with no repeat within this many ms is a tap: the hold ends.
    public var firstRepeatMs = 1000
    /// After repeats begin, a gap over `gapFactor` × the interval seen ends the hold…
    public var gapFactor = 2.5
    /// …but never a gap under this many ms.
    public var minimumGapMs = 100

    /// The defaults.
    public init() {}
}
