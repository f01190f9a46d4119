/// Lets a query through only when no other replaced it within the interval,
/// as a search box does while a person types: "s", "sp", "spi", "spiders"
/// typed quickly searches only "spiders".
public struct QueryDebouncer: Sendable {
    /// The quiet time a query must stand, in seconds.
    public let interval: Double
    private var pending: (query: String, due: Double)?

    /// A debouncer with `interval` seconds of quiet.
    public init(interval: Double) { self.interval = interval }

    /// A new line at time `now`: it replaces any query still waiting.
    public mutating func type(_ query: String, at now: Double) {
        pending = (query, now + interval)
    }

    /// The query that has stood long enough by `now`, if any (taken).
    public mutating func due(at now: Double) -> String? {
        guard let pending, pending.due <= now else { return nil }
        self.pending = nil
        return pending.query
    }

    /// The waiting query, at the end of input (it stands: nothing replaces it).
    public mutating func flush() -> String? {
        defer { pending = nil }
        return pending?.query
    }

    /// When the waiting query comes due, if one waits.
    public var deadline: Double? { pending?.due }
}

/// A client-side rate limit: a bucket of `calls` tokens refilled evenly over
/// `period` seconds, full at the start.
public struct RateLimiter: Sendable {
    public let calls: Int
    public let period: Double
    private var tokens: Double
    private var last: Double

    /// At most `calls` calls per `period` seconds (0 calls: no limit).
    public init(calls: Int, period: Double, now: Double) {
        self.calls = calls
        self.period = period
        tokens = Double(calls)
        last = now
    }

    /// Seconds to wait before the next call may go (0: now).
    public mutating func wait(at now: Double) -> Double {
        guard calls > 0 else { return 0 }
        refill(now)
        return tokens >= 1 ? 0 : (1 - tokens) * period / Double(calls)
    }

    /// Takes a token for a call made at `now`.
    public mutating func take(at now: Double) {
        guard calls > 0 else { return }
        refill(now)
        tokens -= 1
    }

    private mutating func refill(_ now: Double) {
        tokens = min(Double(calls), tokens + (now - last) * Double(calls) / period)
        last = now
    }
}

/// The ids seen lately, to drop repeats, with bounded memory: the oldest are
/// forgotten past `capacity`.
public struct RecentIDs: Sendable {
    private var set = Set<String>()
    private var order: [String] = []
    private var head = 0
    public let capacity: Int

    /// Remembers at most `capacity` ids.
    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Records `id`; returns false when it was seen already.
    public mutating func insert(_ id: String) -> Bool {
        guard !set.contains(id) else { return false }
        set.insert(id)
        if order.count < capacity {
            order.append(id)
        } else {
            set.remove(order[head])
            order[head] = id
            head = (head + 1) % capacity
        }
        return true
    }
}
