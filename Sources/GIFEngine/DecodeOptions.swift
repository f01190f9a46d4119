/// Everything that changes how a GIF is decoded.
public struct DecodeOptions: Sendable, Equatable {
    /// What one file may cost.
    public var limits: DecodeLimits
    /// How delays in the file become display times.
    public var delays: DelayPolicy
    /// Which image blocks make a frame.
    public var grouping: FrameGrouping

    /// Options with the given values (the defaults when omitted).
    public init(limits: DecodeLimits = DecodeLimits(), delays: DelayPolicy = DelayPolicy(), grouping: FrameGrouping = .displayed) {
        self.limits = limits
        self.delays = delays
        self.grouping = grouping
    }
}
