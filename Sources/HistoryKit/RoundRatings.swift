import LadderKit
import RecordKit
import SposureKit

/// The ratings a ladder round's player asked for, gathered from its
/// `rating` events (each a ``RoundRating``): distress and the expectancy
/// before, the peak, distress and the outcome after. A skipped answer is nil.
public struct RoundRatings: Sendable, Equatable {
    /// Distress before the round, 0–10.
    public var sudsBefore: Int?
    /// How likely the feared outcome seemed before it, 0–100 %.
    public var expectPct: Int?
    /// The peak distress during it, 0–10.
    public var peak: Int?
    /// Distress after it, 0–10.
    public var sudsAfter: Int?
    /// Whether the feared outcome happened.
    public var happened: Bool?

    /// No answer.
    public init(sudsBefore: Int? = nil, expectPct: Int? = nil, peak: Int? = nil, sudsAfter: Int? = nil, happened: Bool? = nil) {
        self.sudsBefore = sudsBefore
        self.expectPct = expectPct
        self.peak = peak
        self.sudsAfter = sudsAfter
        self.happened = happened
    }

    /// Whether no answer was given.
    public var isEmpty: Bool { sudsBefore == nil && expectPct == nil && peak == nil && sudsAfter == nil && happened == nil }

    /// Distress before and after, when both were given.
    public var distress: Distress? {
        guard let sudsBefore, let sudsAfter else { return nil }
        return Distress(before: sudsBefore, after: sudsAfter)
    }

    /// Takes the answers of a `rating` event (the later answer to a question wins).
    public mutating func take(_ rating: RoundRating) {
        switch rating.when {
        case .before:
            if let suds = rating.suds { sudsBefore = suds }
            if let expect = rating.expectPct { expectPct = expect }
        case .after:
            if let top = rating.peak { peak = top }
            if let suds = rating.suds { sudsAfter = suds }
            if let flag = rating.happened { happened = flag }
        }
    }

    /// Writes the answers given into `record` (`suds_before`, `expect_pct`, `peak`, `suds_after`, `happened`).
    public func write(to record: JSONRecord) {
        if let sudsBefore { record.set("suds_before", sudsBefore) }
        if let expectPct { record.set("expect_pct", expectPct) }
        if let peak { record.set("peak", peak) }
        if let sudsAfter { record.set("suds_after", sudsAfter) }
        if let happened { record.set("happened", happened) }
    }
}
