import HistoryKit
import RecordKit
import SposureKit

/// Statistics over the history's rounds: how much exposure, the best round,
/// whether recent rounds are longer, and how distress falls; the `history`
/// record of `score history --format json`.
///
/// ```json
/// {"kind":"history","rounds":3,"total_exposed_ms":60000,"average_exposed_ms":20000,"best":{"round":3,"at":"2026-11-23T10:00:00Z","exposed_ms":30000,"points":305},"trend":{"window":1,"recent_mean_ms":30000,"previous_mean_ms":20000,"change_ms":10000,"direction":"up"},"distress":{"rated_rounds":3,"mean_before":7.0,"mean_after":4.3,"mean_drop":2.7,"window":1,"early_before":8.0,"recent_before":6.0,"falling":true},"first_at":"2026-11-21T10:00:00Z","last_at":"2026-11-23T10:00:00Z"}
/// ```
///
/// When the rounds showed credited pictures, `credits` comes last: the
/// latest distinct ones, as each round keeps them.
public struct LifetimeStats: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "history"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let rounds = "rounds", totalExposedMs = "total_exposed_ms", averageExposedMs = "average_exposed_ms"
        public static let best = "best", trend = "trend", distress = "distress", firstAt = "first_at", lastAt = "last_at"
        public static let credits = "credits"
    }

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
    /// Whose pictures the rounds showed (Wikimedia Commons' authors and
    /// licences): the latest distinct credits, at most
    /// ``PictureCredit/maxPerRound``, the most recently seen last.
    public var credits: [PictureCredit] = []

    /// The most rounds ``exposures`` keeps: as many as the sparkline shows.
    public static let latestCount = 60

    /// The best round.
    public struct Best: Sendable, Equatable {
        /// The field names of its object, in the order they are written.
        public enum Field {
            public static let round = "round", at = "at", exposedMs = "exposed_ms", points = "points"
        }

        /// Its 1-based place among the rounds counted.
        public var number: Int
        /// Its `at`.
        public var at: String
        /// Its exposure.
        public var exposedMs: Int
        /// Its points.
        public var points: Int

        /// Its object's fields, in order.
        var fields: [(key: String, value: any JSONFieldValue)] {
            [(Field.round, number), (Field.at, at), (Field.exposedMs, exposedMs), (Field.points, points)]
        }
    }

    /// The mean exposure of the last `window` rounds against the `window` before them.
    public struct Trend: Sendable, Equatable {
        /// The field names of its object, in the order they are written.
        public enum Field {
            public static let window = "window", recentMeanMs = "recent_mean_ms", previousMeanMs = "previous_mean_ms"
            public static let changeMs = "change_ms", direction = "direction"
        }

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

        /// Its object's fields, in order.
        var fields: [(key: String, value: any JSONFieldValue)] {
            [(Field.window, window), (Field.recentMeanMs, recentMeanMs), (Field.previousMeanMs, previousMeanMs),
             (Field.changeMs, changeMs), (Field.direction, direction)]
        }
    }

    /// Distress over the rated rounds.
    public struct DistressTrend: Sendable, Equatable {
        /// The field names of its object, in the order they are written.
        public enum Field {
            public static let rated = "rated_rounds", meanBefore = "mean_before", meanAfter = "mean_after"
            public static let meanDrop = "mean_drop", window = "window", earlyBefore = "early_before"
            public static let recentBefore = "recent_before", falling = "falling"
        }

        /// Rounds with ratings.
        public var rated: Int
        /// Mean rating before a round.
        public var meanBefore: Double
        /// Mean rating after a round.
        public var meanAfter: Double
        /// Mean of before − after: how much a round calms. Kept, not
        /// worked out from the means: the record rounds each to tenths, and
        /// the drop of two rounded means is not always the rounded drop.
        public var meanDrop: Double
        /// Rated rounds in each half of the comparison; 0 under two rated rounds.
        public var window: Int
        /// Mean rating before the first `window` rated rounds.
        public var earlyBefore: Double?
        /// Mean rating before the last `window` rated rounds.
        public var recentBefore: Double?
        /// Whether the rating before a round has fallen from the early rounds
        /// to the recent ones (kept, as ``meanDrop`` is: rounded means can tie).
        public var falling: Bool?

        /// Its object's fields, in order: the means to tenths.
        var fields: [(key: String, value: any JSONFieldValue)] {
            [(Field.rated, rated), (Field.meanBefore, Tenths(meanBefore)), (Field.meanAfter, Tenths(meanAfter)),
             (Field.meanDrop, Tenths(meanDrop)), (Field.window, window), (Field.earlyBefore, Tenths(earlyBefore)),
             (Field.recentBefore, Tenths(recentBefore)), (Field.falling, falling)]
        }
        // A trend of every figure given: the memberwise initializer (the one
        // below is in an extension, so Swift still makes it).
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

    /// Reads a `history` record; nil when it is of another kind, or a field
    /// it always has is missing or of another type. The means come back as
    /// the record has them, to tenths; ``exposures`` (the sparkline's) are not
    /// in the record, and come back empty.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let rounds = record.int(Field.rounds), let total = record.int(Field.totalExposedMs),
              let average = record.int(Field.averageExposedMs) else { return nil }
        self.rounds = rounds
        totalExposedMs = total
        averageExposedMs = average
        firstAt = record.string(Field.firstAt)
        lastAt = record.string(Field.lastAt)
        exposures = []
        credits = PictureCredit.list(in: record, key: Field.credits)
        if let object = record.object(Field.best) {
            typealias Key = Best.Field
            guard let number = object.int(Key.round), let at = object.string(Key.at), let exposed = object.int(Key.exposedMs),
                  let points = object.int(Key.points) else { return nil }
            best = Best(number: number, at: at, exposedMs: exposed, points: points)
        }
        if let object = record.object(Field.trend) {
            typealias Key = Trend.Field
            guard let window = object.int(Key.window), let recent = object.int(Key.recentMeanMs),
                  let previous = object.int(Key.previousMeanMs) else { return nil }
            trend = Trend(window: window, recentMeanMs: recent, previousMeanMs: previous)
        }
        if let object = record.object(Field.distress) {
            typealias Key = DistressTrend.Field
            guard let rated = object.int(Key.rated), let before = object.double(Key.meanBefore), let after = object.double(Key.meanAfter),
                  let drop = object.double(Key.meanDrop), let window = object.int(Key.window) else { return nil }
            distress = DistressTrend(rated: rated, meanBefore: before, meanAfter: after, meanDrop: drop, window: window,
                                     earlyBefore: object.double(Key.earlyBefore), recentBefore: object.double(Key.recentBefore),
                                     falling: object.bool(Key.falling))
        }
    }

    /// The `history` record `score history --format json` writes (see docs/score.md).
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([("kind", Self.kind), (Field.rounds, rounds), (Field.totalExposedMs, totalExposedMs),
                    (Field.averageExposedMs, averageExposedMs)])
        record.setObject(Field.best, best) { $0.set($1.fields) }
        record.setObject(Field.trend, trend) { $0.set($1.fields) }
        record.setObject(Field.distress, distress) { $0.set($1.fields) }
        record.set([(Field.firstAt, firstAt), (Field.lastAt, lastAt)])
        PictureCredit.write(credits, to: record, key: Field.credits)
        return record
    }
}

extension LifetimeStats.DistressTrend {
    /// The trend of these means; the drop and whether it is falling worked out from them.
    init(rated: Int, meanBefore: Double, meanAfter: Double, window: Int, earlyBefore: Double?, recentBefore: Double?) {
        var falling: Bool?
        if let earlyBefore, let recentBefore { falling = recentBefore < earlyBefore }
        self.init(rated: rated, meanBefore: meanBefore, meanAfter: meanAfter, meanDrop: meanBefore - meanAfter, window: window,
                  earlyBefore: earlyBefore, recentBefore: recentBefore, falling: falling)
    }
}
