import SposureKit

/// Jittered exponential backoff: attempt n waits between half and all of
/// `base × 2^(n-1)`, capped, so many clients retrying do not arrive together.
public struct Backoff: Sendable {
    /// The delay before the first retry, in seconds (before jitter).
    public var base: Double
    /// The longest delay, in seconds.
    public var cap: Double

    /// A backoff starting at `base` seconds, never over `cap`.
    public init(base: Double, cap: Double = 30) {
        self.base = base
        self.cap = cap
    }

    /// The delay in seconds before retry number `attempt` (1 for the first).
    public func delay(attempt: Int, unit: Double = Double.random(in: 0..<1)) -> Double {
        let full = min(cap, base * Double(1 << min(max(attempt - 1, 0), 30)))
        return full / 2 + full / 2 * unit
    }
}
