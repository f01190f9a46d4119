import FoundationEssentials
import Glibc

/// One round played on a ladder, as the rules need it (the history keeps more).
public struct LadderRound: Sendable, Equatable {
    /// When it started.
    public var at: Date
    /// The rung it was played on, from 1.
    public var rung: Int
    /// Its exposure.
    public var exposedMs: Int
    /// How it ended (`released`, `quit`, `eof`, `time-limit`, `interrupted`); nil when incomplete.
    public var endReason: String?
    /// The peak distress during it, 0–10, when rated.
    public var peak: Int?
    /// The distress after it, 0–10, when rated.
    public var sudsAfter: Int?
    /// Whether it was a re-test of a mastered rung.
    public var retest: Bool

    /// A round on `rung`.
    public init(at: Date, rung: Int, exposedMs: Int, endReason: String? = "released", peak: Int? = nil,
                sudsAfter: Int? = nil, retest: Bool = false) {
        self.at = at
        self.rung = rung
        self.exposedMs = exposedMs
        self.endReason = endReason
        self.peak = peak
        self.sudsAfter = sudsAfter
        self.retest = retest
    }

    /// Whether it counts on its rung: enough exposure.
    public func counts(_ rules: LadderRules) -> Bool { exposedMs >= rules.countMs }

    /// Whether it ended calm: distress after at or under the rule, or fallen far enough from the peak.
    public func endedCalm(_ rules: LadderRules) -> Bool {
        guard let after = sudsAfter else { return false }
        if after <= rules.stepUpSuds { return true }
        guard let peak, peak > 0 else { return false }
        return after * 100 <= peak * rules.stepUpDropPercent
    }

    /// Whether the person let go early at a high peak (a rung too hard for now).
    public func releasedEarlyAtPeak(_ rules: LadderRules) -> Bool {
        guard endReason == "released" || endReason == "quit", exposedMs < rules.earlyReleaseMs, let peak else { return false }
        return peak >= rules.stepDownPeak
    }
}
