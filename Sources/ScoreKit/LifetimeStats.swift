import HistoryKit
import SposureKit

/// Statistics over the history's rounds: how much exposure, the best round,
/// whether recent rounds are longer, and how distress falls.
public struct LifetimeStats: Sendable, Equatable {
    /// The rounds counted.
    public var rounds: Int
    /// Their exposure in all.
    public var totalExposedMs: Int
    /// Exposure a round, rounded to the millisecond (0 with no rounds).
    public var averageExposedMs: Int
    /// The round with the most exposure (the earliest on a tie).
    public var best: Best?
    /// Recent rounds against the ones before; nil under two rounds.
    public var trend: Trend?
    /// The distress ratings; nil when no round has any.
    public var distress: DistressTrend?
    /// The first and last round's `at`.
    public var firstAt: String?
    /// The last round's `at`.
    public var lastAt: String?
    /// Exposure of the latest rounds (up to ``latestCount``), oldest first.
    public var exposures: [Int]

    /// The most rounds ``exposures`` keeps: as many as the sparkline shows.
    public static let latestCount = 60

    /// The best round.
    public struct Best: Sendable, Equatable {
        /// Its 1-based place among the rounds counted.
        public var number: Int
        /// Its `at`.
        public var at: String
        /// Its exposure.
        public var exposedMs: Int
        /// Its points.
        public var points: Int
    }

    /// The mean exposure of the last `window` rounds against the `window` before them.
    public struct Trend: Sendable, Equatable {
        /// Rounds in each half: 5, or half the rounds when there are fewer than 10.
        public var window: Int
        /// Mean exposure of the latest `window` rounds.
        public var recentMeanMs: Int
        /// Mean exposure of the `window` rounds before them.
        public var previousMeanMs: Int
        /// `recentMeanMs - previousMeanMs`.
        public var changeMs: Int { recentMeanMs - previousMeanMs }
        /// `up` or `down` when the change passes 5% of the earlier mean (and 1 s), else `flat`.
        public var direction: String {
            let threshold = max(1000, previousMeanMs / 20)
            return changeMs > threshold ? "up" : changeMs < -threshold ? "down" : "flat"
        }
    }

    /// Distress over the rated rounds.
    public struct DistressTrend: Sendable, Equatable {
        /// Rounds with ratings.
        public var rated: Int
        /// Mean rating before a round.
        public var meanBefore: Double
        /// Mean rating after a round.
        public var meanAfter: Double
        /// Mean of before − after: how much a round calms.
        public var meanDrop: Double { meanBefore - meanAfter }
        /// Rated rounds in each half of the comparison; 0 under two rated rounds.
        public var window: Int
        /// Mean rating before the first `window` rated rounds.
        public var earlyBefore: Double?
        /// Mean rating before the last `window` rated rounds.
        public var recentBefore: Double?
        /// Whether the rating before a round has fallen from the early rounds to the recent ones.
        public var falling: Bool? {
            guard let earlyBefore, let recentBefore else { return nil }
            return recentBefore < earlyBefore
        }
    }

    /// The statistics of `entries` (oldest first); the trends compare windows of up to `window` rounds.
    public init(entries: [HistoryEntry], window: Int = 5) {
        var accumulator = Accumulator(window: window)
        for entry in entries { accumulator.add(entry) }
        self = accumulator.stats
    }

    /// The figures an ``Accumulator`` keeps; the trends are its to add.
    init(rounds: Int, totalExposedMs: Int, firstAt: String?, lastAt: String?, best: Best?, exposures: [Int]) {
        self.rounds = rounds
        self.totalExposedMs = totalExposedMs
        averageExposedMs = rounds == 0 ? 0 : Int((Double(totalExposedMs) / Double(rounds)).rounded())
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.best = best
        self.exposures = exposures
    }

    static func mean(_ values: some Collection<Int>) -> Int {
        values.isEmpty ? 0 : Int((Double(values.reduce(0, +)) / Double(values.count)).rounded())
    }

    static func meanReal(_ values: some Collection<Int>) -> Double {
        values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count)
    }

    /// The `history` record `score history --format json` writes (see docs/score.md).
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "history")
        record.set("rounds", rounds)
        record.set("total_exposed_ms", totalExposedMs)
        record.set("average_exposed_ms", averageExposedMs)
        record.setObject("best", best) { object, best in
            object.set("round", best.number)
            object.set("at", best.at)
            object.set("exposed_ms", best.exposedMs)
            object.set("points", best.points)
        }
        record.setObject("trend", trend) { object, trend in
            object.set("window", trend.window)
            object.set("recent_mean_ms", trend.recentMeanMs)
            object.set("previous_mean_ms", trend.previousMeanMs)
            object.set("change_ms", trend.changeMs)
            object.set("direction", trend.direction)
        }
        record.setObject("distress", distress) { object, distress in
            object.set("rated_rounds", distress.rated)
            object.setTenths("mean_before", distress.meanBefore)
            object.setTenths("mean_after", distress.meanAfter)
            object.setTenths("mean_drop", distress.meanDrop)
            object.set("window", distress.window)
            object.setTenths("early_before", distress.earlyBefore)
            object.setTenths("recent_before", distress.recentBefore)
            object.set("falling", distress.falling)
        }
        record.set("first_at", firstAt)
        record.set("last_at", lastAt)
        return record
    }
}
