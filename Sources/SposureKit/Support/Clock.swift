import Glibc

/// Nanoseconds on the monotonic clock.
public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
    Double(monotonicNanoseconds()) / 1e9
}

/// Whole milliseconds since `start` on the monotonic clock.
public func elapsedMilliseconds(since start: UInt64) -> Int {
    Int((monotonicNanoseconds() - start) / 1_000_000)
}

/// `seconds` as a timespec: negative and NaN as 0, anything past 1e9 s (some
/// 31 years, `.infinity` and `Date.distantFuture` among them) as 1e9 s.
public func timespecSpan(_ seconds: Double) -> timespec {
    let span = seconds > 0 ? min(seconds, 1e9) : 0
    let whole = span.rounded(.down)
    return timespec(tv_sec: Int(whole), tv_nsec: min(999_999_999, Int((span - whole) * 1e9)))
}
