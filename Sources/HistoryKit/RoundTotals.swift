import SposureKit

/// A round's totals: what its events add up to. The round being scored
/// (ScoreKit's `Round`), its history line (``HistoryEntry``) and its `score`
/// record all hold this one struct, and write and read its fields here.
public struct RoundTotals: Sendable, Equatable {
    /// The sum of every `shown` event's `exposed_ms`.
    public var exposedMs = 0
    /// The longest hold, `up_ms - down_ms`.
    public var longestHoldMs = 0
    /// The number of holds.
    public var holds = 0
    /// GIFs put on screen.
    public var gifsShown = 0
    /// GIFs played to their end.
    public var gifsCompleted = 0
    /// Times the person held with nothing ready to show.
    public var stalls = 0
    /// The time those stalls lasted.
    public var stallMs = 0

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let exposedMs = "exposed_ms", longestHoldMs = "longest_hold_ms", holds = "holds"
        public static let gifsShown = "gifs_shown", gifsCompleted = "gifs_completed", stalls = "stalls", stallMs = "stall_ms"
        /// The fields that are times (ms), and those that are counts.
        public static let times = [longestHoldMs, stallMs], counts = [holds, gifsShown, gifsCompleted, stalls]
    }

    /// Totals of nothing yet.
    public init() {}

    /// Totals with the given numbers.
    public init(exposedMs: Int, longestHoldMs: Int = 0, holds: Int = 0, gifsShown: Int = 0, gifsCompleted: Int = 0,
                stalls: Int = 0, stallMs: Int = 0) {
        self.exposedMs = exposedMs
        self.longestHoldMs = longestHoldMs
        self.holds = holds
        self.gifsShown = gifsShown
        self.gifsCompleted = gifsCompleted
        self.stalls = stalls
        self.stallMs = stallMs
    }

    /// Each field's name and its number, in the order they are written:
    /// reading and writing a record both go through this one list.
    static var fields: [(name: String, value: WritableKeyPath<RoundTotals, Int>)] {
        [(Field.exposedMs, \.exposedMs), (Field.longestHoldMs, \.longestHoldMs), (Field.holds, \.holds),
         (Field.gifsShown, \.gifsShown), (Field.gifsCompleted, \.gifsCompleted), (Field.stalls, \.stalls),
         (Field.stallMs, \.stallMs)]
    }

    /// The totals of `record`; a missing field is 0 (older or hand-written lines still count).
    public init(record: JSONRecord) {
        for (name, value) in Self.fields { self[keyPath: value] = record.int(name) ?? 0 }
    }

    /// Writes the fields to `record`, in their order.
    public func write(to record: JSONRecord) {
        for (name, value) in Self.fields { record.set(name, self[keyPath: value]) }
    }
}
