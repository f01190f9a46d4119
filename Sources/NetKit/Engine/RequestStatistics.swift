import SposureKit

/// The counters of a network stage's run, for its progress line and summary.
///
/// The ``RequestEngine``'s client counts; each stage words its own line.
public final class RequestStatistics {
    /// Records that needed the stage's work (`gif` records, `page` records).
    public var records = 0
    /// Of those, the ones whose result is out.
    public var done = 0
    /// Error records made (bad lines included).
    public var failed = 0
    /// Retries scheduled.
    public var retries = 0
    /// Requests made (API calls).
    public var calls = 0
    /// Body bytes received.
    public var bytes = 0
    /// Results served from the cache.
    public var cached = 0
    /// Records failed at once with a failure the cache remembers (fetch-images).
    public var remembered = 0
    /// Records made from the answers (`gif` records).
    public var made = 0
    /// Repeats dropped.
    public var duplicates = 0
    /// Records settled without a request (past the end of a list).
    public var skipped = 0
    private let started = monotonicNanoseconds()

    /// Counters at zero, the clock started.
    public init() {}

    /// Seconds since the run started.
    public var seconds: Double { Double(monotonicNanoseconds() - started) / 1e9 }
}
