import HistoryKit
import RecordKit
extension LifetimeStats {
    /// ``LifetimeStats`` added up one round at a time, oldest first.
    ///
    /// It keeps sums and counts, the best round, and the few rounds the
    /// output shows (the latest for the trend and the sparkline, the first and
    /// last rated for how distress falls), so a history of any length is
    /// summed in the same small memory, with the same figures as the rounds
    /// held all at once.
    public struct Accumulator: Sendable {
        /// The trend's window, as given to ``LifetimeStats/init(entries:window:)``.
        public let window: Int
        private var rounds = 0
        private var totalExposedMs = 0
        private var best: Best?
        private var firstAt: String?
        private var lastAt: String?
        private var exposures: LatestValues<Int>
        private var rated = 0
        private var sumBefore = 0
        private var sumAfter = 0
        private var earlyBefore: [Int] = []
        private var recentBefore: LatestValues<Int>
        private var credits: [PictureCredit] = []

        /// An empty tally whose trends compare windows of up to `window` rounds.
        public init(window: Int = 5) {
            self.window = window
            exposures = LatestValues(capacity: max(LifetimeStats.latestCount, 2 * window))
            recentBefore = LatestValues(capacity: window)
        }

        /// Takes the next round.
        public mutating func add(_ entry: HistoryEntry) {
            rounds += 1
            totalExposedMs += entry.exposedMs
            if firstAt == nil { firstAt = entry.at }
            lastAt = entry.at
            // Strictly more: the earliest of equal rounds stays the best.
            if entry.exposedMs > best?.exposedMs ?? -1 {
                best = Best(number: rounds, at: entry.at, exposedMs: entry.exposedMs, points: entry.points)
            }
            exposures.append(entry.exposedMs)
            for credit in entry.credits {
                credits.removeAll { $0 == credit }
                credits.append(credit)
                if credits.count > PictureCredit.maxPerRound { credits.removeFirst() }
            }
            if let distress = entry.distress {
                rated += 1
                sumBefore += distress.before
                sumAfter += distress.after
                if earlyBefore.count < window { earlyBefore.append(distress.before) }
                recentBefore.append(distress.before)
            }
        }

        /// The statistics of the rounds taken so far.
        public var stats: LifetimeStats {
            var stats = LifetimeStats(rounds: rounds, totalExposedMs: totalExposedMs, firstAt: firstAt, lastAt: lastAt,
                                      best: best, exposures: Array(exposures.values.suffix(LifetimeStats.latestCount)))
            stats.credits = credits
            let latest = exposures.values
            let half = min(window, rounds / 2)
            if half >= 1 {
                let recent = latest.suffix(half)
                let previous = latest.dropLast(half).suffix(half)
                stats.trend = Trend(window: half, recentMeanMs: LifetimeStats.mean(recent), previousMeanMs: LifetimeStats.mean(previous))
            }
            if rated > 0 {
                let count = Double(rated)
                let ratedHalf = min(window, rated / 2)
                stats.distress = DistressTrend(
                    rated: rated,
                    meanBefore: Double(sumBefore) / count,
                    meanAfter: Double(sumAfter) / count,
                    window: ratedHalf,
                    earlyBefore: ratedHalf >= 1 ? LifetimeStats.meanReal(earlyBefore.prefix(ratedHalf)) : nil,
                    recentBefore: ratedHalf >= 1 ? LifetimeStats.meanReal(recentBefore.values.suffix(ratedHalf)) : nil)
            }
            return stats
        }
    }
}
