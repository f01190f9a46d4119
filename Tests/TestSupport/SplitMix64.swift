/// A small seeded generator (SplitMix64), so that a test's random data is
/// the same every run and a failure names a case that can be rerun (the
/// scaler's tests, the perceptual hash's ``ClipSet``).
public struct SplitMix64: RandomNumberGenerator {
    /// The state: the seed, then moved on by each number drawn.
    public var state: UInt64

    /// A generator from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0 ..< `bound` (`bound` > 0).
    public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
