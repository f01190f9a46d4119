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
