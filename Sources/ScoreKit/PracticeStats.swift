import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import SposureKit

/// What `score history` adds for practice: today, the streak of days
/// practised, days this week against the 3–5 that guidance recommends,
/// distress per rung, and how often the feared outcome happened against how
/// likely it was expected to be.
public struct PracticeStats: Sendable, Equatable {
    /// Rounds today (by the local date).
    public var roundsToday = 0
    /// Exposure today.
    public var exposedMsToday = 0
    /// Days in a row with a round, up to today (or up to yesterday when none today yet).
    public var streakDays = 0
    /// Days with a round in the last 7 (today included).
    public var daysThisWeek = 0
    /// Days a week that guidance recommends (a project choice within common self-help advice).
    public static let recommendedDays = 3...5
    /// Distress by ladder and rung, in order of first appearance.
    public var rungs: [RungDistress] = []
    /// The rounds that said both how likely the feared outcome was and whether it happened.
    public var expectancy: Expectancy?

    /// Distress on one rung.
    public struct RungDistress: Sendable, Equatable {
        public var ladder: String
        public var rung: Int
        /// Rounds on it.
        public var rounds: Int
        /// Mean distress before and after (one decimal), over the rounds that said.
        public var meanBefore: Double?
        public var meanAfter: Double?
    }

    /// Expected against happened.
    public struct Expectancy: Sendable, Equatable {
        /// Rounds that said both.
        public var rounds: Int
        /// The mean expected likelihood, 0–100 %.
        public var meanExpectedPct: Int
        /// How often it happened, 0–100 %.
        public var happenedPct: Int
    }

    /// The statistics of `entries` at `now`, days counted in local time.
    public init(entries: [HistoryEntry], now: Date, offset: UTCOffset = .local) {
        var accumulator = Accumulator(now: now, offset: offset)
        for entry in entries { accumulator.add(entry) }
        self = accumulator.stats
    }

    /// No rounds: the figures an ``Accumulator`` fills in.
    init() {}

    /// Writes the `practice`, `rungs` and `expectancy` fields into a `history` record.
    public func write(to record: JSONRecord) {
        let practice = record.setObject("practice")
        practice.set("rounds_today", roundsToday)
        practice.set("exposed_ms_today", exposedMsToday)
        practice.set("streak_days", streakDays)
        practice.set("days_this_week", daysThisWeek)
        practice.set("recommended_days", "\(Self.recommendedDays.lowerBound)-\(Self.recommendedDays.upperBound)")
        let items = rungs.map { rung in
            let item = JSONRecord()
            item.set("ladder", rung.ladder)
            item.set("rung", rung.rung)
            item.set("rounds", rung.rounds)
            if let before = rung.meanBefore { item.set("mean_before", before) } else { item.setNull("mean_before") }
            if let after = rung.meanAfter { item.set("mean_after", after) } else { item.setNull("mean_after") }
            return item
        }
        record.set("rungs", from: JSONRecord.parseArray(items), key: "rungs")
        if let expectancy {
            let object = record.setObject("expectancy")
            object.set("rounds", expectancy.rounds)
            object.set("mean_expected_pct", expectancy.meanExpectedPct)
            object.set("happened_pct", expectancy.happenedPct)
        } else {
            record.setNull("expectancy")
        }
    }

    /// The lines `score history` adds on a terminal.
    public func lines(style: TextStyle) -> [String] {
        var out = [""]
        out.append("  Today         \(roundsToday) round\(roundsToday == 1 ? "" : "s"), \(DurationText.format(milliseconds: exposedMsToday))")
        out.append("  Streak        \(streakDays) day\(streakDays == 1 ? "" : "s")")
        let week = "\(daysThisWeek) of 7 days (guidance: \(Self.recommendedDays.lowerBound)–\(Self.recommendedDays.upperBound))"
        out.append("  This week     " + (Self.recommendedDays.contains(daysThisWeek) ? style.green(week) : week))
        if !rungs.isEmpty {
            out.append("  Distress by rung (before → after):")
            for rung in rungs {
                let before = rung.meanBefore.map { LifetimeScreen.tenths($0) } ?? "–"
                let after = rung.meanAfter.map { LifetimeScreen.tenths($0) } ?? "–"
                out.append("    \(RemoteText.clean(rung.ladder, limit: 40)) rung \(rung.rung): \(rung.rounds) round\(rung.rounds == 1 ? "" : "s"), \(before) → \(after)")
            }
        }
        if let expectancy {
            out.append("  Feared outcome: expected \(expectancy.meanExpectedPct)% likely, happened in \(expectancy.happenedPct)% of \(expectancy.rounds) round\(expectancy.rounds == 1 ? "" : "s")")
        }
        return out
    }
}
