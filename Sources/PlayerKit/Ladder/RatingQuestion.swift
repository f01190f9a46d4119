/// One question asked on the terminal before or after a ladder round (issue
/// 15), with its choices, the key for each and the cells a click picks from.
///
/// Keys: distress and peak 0–9, and `t` for 10; how likely 0–9 for 0–90 %,
/// and `t` for 100 %; happened `y` or `n`. Esc skips the question.
public enum RatingQuestion: Sendable, Equatable, CaseIterable {
    /// Before: distress now, 0–10.
    case sudsBefore
    /// Before: how likely the feared outcome is, 0–100 %.
    case expectPct
    /// After: the peak distress during the round, 0–10.
    case peak
    /// After: distress now, 0–10.
    case sudsAfter
    /// After: whether the feared outcome happened (1 yes, 0 no).
    case happened

    /// The questions asked before the first hold.
    public static let before: [RatingQuestion] = [.sudsBefore, .expectPct]
    /// The questions asked after the round.
    public static let after: [RatingQuestion] = [.peak, .sudsAfter, .happened]

    /// The question, in one or two lines; `expectation` is the feared
    /// outcome in the ladder's words, when it has one.
    public func text(expectation: String?) -> [String] {
        let feared = expectation.map { "\u{201C}\($0)\u{201D}" }
        switch self {
        case .sudsBefore: return ["How distressed are you now?", "0 calm … 10 the worst you can imagine"]
        case .expectPct:
            return [feared.map { "How likely is it that \($0)?" } ?? "How likely is what you fear to happen?",
                    "0 % not at all … 100 % certain"]
        case .peak: return ["What was your peak distress during the round?", "0 calm … 10 the worst you can imagine"]
        case .sudsAfter: return ["How distressed are you now?", "0 calm … 10 the worst you can imagine"]
        case .happened:
            return [feared.map { "Did it happen: \($0)?" } ?? "Did what you feared happen?", ""]
        }
    }

    /// The choices, as shown and as answered.
    public var choices: [(label: String, value: Int)] {
        switch self {
        case .sudsBefore, .peak, .sudsAfter: return (0...10).map { ("\($0)", $0) }
        case .expectPct: return (0...10).map { ("\($0 * 10)%", $0 * 10) }
        case .happened: return [("yes", 1), ("no", 0)]
        }
    }

    /// The keys, as told under the choices.
    public var keys: String {
        switch self {
        case .sudsBefore, .peak, .sudsAfter: return "a key 0-9, t for 10, or a click · Esc skips · q stops"
        case .expectPct: return "a key 0-9 for 0-90 %, t for 100 %, or a click · Esc skips · q stops"
        case .happened: return "y or n, or a click · Esc skips · q stops"
        }
    }

    /// The answer a key gives (its Unicode code point); nil when it is not one.
    public func answer(key code: UInt32) -> Int? {
        switch self {
        case .sudsBefore, .peak, .sudsAfter, .expectPct:
            let scale = self == .expectPct ? 10 : 1
            if (48...57).contains(code) { return Int(code - 48) * scale }
            if code == 116 || code == 84 { return 10 * scale }  // t, T: ten
            return nil
        case .happened:
            if code == 121 || code == 89 { return 1 }  // y
            if code == 110 || code == 78 { return 0 }  // n
            return nil
        }
    }
}
