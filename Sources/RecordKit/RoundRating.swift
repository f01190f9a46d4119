import SposureKit

/// The answers of one `rating` event of a ladder round: before the first
/// hold, distress now (0–10) and how likely the feared outcome seems
/// (0–100 %); after the round, the peak distress, distress now and whether
/// the feared outcome happened. A skipped answer is nil, and absent from the
/// record. gif-play writes it (and reads it from `--ratings script:FILE`);
/// score reads it.
///
/// ```json
/// {"kind":"rating","when":"before","suds":7,"expect_pct":80}
/// {"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}
/// ```
public struct RoundRating: Sendable, Equatable {
    /// Before the first hold, or after the round.
    public enum When: String, Sendable {
        case before, after
    }

    /// Before or after.
    public var when: When
    /// Distress now, 0–10.
    public var suds: Int?
    /// Before: how likely the feared outcome seems, 0–100 %.
    public var expectPct: Int?
    /// After: the peak distress during the round, 0–10.
    public var peak: Int?
    /// After: whether the feared outcome happened.
    public var happened: Bool?

    /// The distress scale of `suds` and `peak`.
    public static let scale = 0...10

    /// The field names, spelled once.
    public enum Field {
        public static let when = "when", suds = "suds", expectPct = "expect_pct", peak = "peak", happened = "happened"
    }

    /// Answers given one by one.
    public init(when: When, suds: Int? = nil, expectPct: Int? = nil, peak: Int? = nil, happened: Bool? = nil) {
        self.when = when
        self.suds = suds
        self.expectPct = expectPct
        self.peak = peak
        self.happened = happened
    }

    /// The answers `record` gives (its `kind` is not looked at): nil when its
    /// `when` is neither `before` nor `after`. An answer of the wrong type or
    /// out of its range is skipped and named in `problems`.
    public static func read(_ record: JSONRecord) -> (rating: RoundRating?, problems: [String]) {
        guard let when = record.string(Field.when).flatMap(When.init(rawValue:)) else { return (nil, []) }
        var problems: [String] = []
        func number(_ key: String, _ range: ClosedRange<Int>) -> Int? {
            guard record.has(key) else { return nil }
            guard let value = record.int(key), range.contains(value) else {
                problems.append("\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                return nil
            }
            return value
        }
        var rating = RoundRating(when: when)
        switch when {
        case .before:
            rating.suds = number(Field.suds, scale)
            rating.expectPct = number(Field.expectPct, 0...100)
        case .after:
            rating.peak = number(Field.peak, scale)
            rating.suds = number(Field.suds, scale)
            if record.has(Field.happened) {
                rating.happened = record.bool(Field.happened)
                if rating.happened == nil { problems.append("\"happened\" must be true or false") }
            }
        }
        return (rating, problems)
    }

    /// Writes `when` and the answers given, in the order they are asked:
    /// before, distress then the expectancy; after, the peak, distress now,
    /// the outcome.
    public func write(to record: JSONRecord) {
        record.set(Field.when, when.rawValue)
        switch when {
        case .before:
            if let suds { record.set(Field.suds, suds) }
            if let expectPct { record.set(Field.expectPct, expectPct) }
        case .after:
            if let peak { record.set(Field.peak, peak) }
            if let suds { record.set(Field.suds, suds) }
            if let happened { record.set(Field.happened, happened) }
        }
    }
}
