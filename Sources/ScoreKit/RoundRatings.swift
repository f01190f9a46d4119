import SposureKit

/// The ratings a ladder round's player asked for, from its `rating` events:
/// before the first hold, distress now (0–10) and how likely the feared
/// outcome is (0–100 %); after the round, the peak distress, distress now and
/// whether the feared outcome happened. A skipped answer is nil.
///
/// ```json
/// {"kind":"rating","when":"before","suds":7,"expect_pct":80}
/// {"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}
/// ```
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

    /// Takes a `rating` event; a later answer replaces an earlier one. Returns
    /// a warning for a wrong `when` or a value out of range (that answer is skipped).
    public mutating func take(_ record: JSONRecord) -> String? {
        var problems: [String] = []
        func value(_ key: String, _ range: ClosedRange<Int>) -> Int? {
            guard record.has(key) else { return nil }
            guard let number = record.int(key), range.contains(number) else {
                problems.append("\(key) is not a whole number \(range.lowerBound)–\(range.upperBound)")
                return nil
            }
            return number
        }
        switch record.string("when") {
        case "before":
            if let suds = value("suds", Distress.scale) { sudsBefore = suds }
            if let expect = value("expect_pct", 0...100) { expectPct = expect }
        case "after":
            if let top = value("peak", Distress.scale) { peak = top }
            if let suds = value("suds", Distress.scale) { sudsAfter = suds }
            if record.has("happened") {
                if let flag = record.bool("happened") { happened = flag } else { problems.append("happened is not true or false") }
            }
        default:
            return "a rating record whose when is neither before nor after, skipped"
        }
        return problems.isEmpty ? nil : "a rating record: \(problems.joined(separator: ", ")), skipped"
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
