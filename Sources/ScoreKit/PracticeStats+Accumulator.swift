import HistoryKit
import FoundationEssentials
import Glibc

extension PracticeStats {
    /// ``PracticeStats`` added up one round at a time.
    ///
    /// The days practised are bits, one a day back from today over
    /// ``streakLimit`` days (8 KB): a streak longer than that (179 years) is
    /// counted as that long. Distress per rung keeps sums a rung, and the
    /// expectancy sums and counts: memory does not grow with the history.
    public struct Accumulator {
        /// The most days back from today the streak is counted over.
        public static let streakLimit = 1 << 16

        private let offset: UTCOffset
        private let today: Int
        private var parser = Timestamp.Parser()
        private var days = [UInt64](repeating: 0, count: streakLimit / 64)
        private var roundsToday = 0
        private var exposedMsToday = 0
        private var rungOrder: [RungKey] = []
        private var rungSums: [RungKey: RungSums] = [:]
        private var answered = 0
        private var expectedSum = 0
        private var happened = 0
        /// Whether any round taken was on a ladder.
        public private(set) var hasLadderRounds = false

        private struct RungKey: Hashable {
            var ladder: String
            var rung: Int
        }

        private struct RungSums {
            var rounds = 0
            var before = 0, beforeCount = 0
            var after = 0, afterCount = 0
        }

        /// An empty tally at `now`, days counted in local time.
        public init(now: Date, offset: UTCOffset = .local) {
            self.offset = offset
            today = Self.day(of: now, offset: offset)
        }

        /// The local date of `date` as a day number (consecutive dates, consecutive numbers).
        private static func day(of date: Date, offset: UTCOffset) -> Int {
            let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset.seconds(date)
            return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        }

        /// Takes the next round.
        public mutating func add(_ entry: HistoryEntry) {
            if let date = parser.date(entry.at) {
                let back = today - Self.day(of: date, offset: offset)
                if back == 0 {
                    roundsToday += 1
                    exposedMsToday += entry.exposedMs
                }
                if back >= 0 && back < Self.streakLimit { days[back / 64] |= 1 << UInt64(back % 64) }
            }
            if let tag = entry.ladder {
                hasLadderRounds = true
                let key = RungKey(ladder: tag.ladder, rung: tag.rung)
                if rungSums[key] == nil { rungOrder.append(key) }
                var sums = rungSums[key] ?? RungSums()
                sums.rounds += 1
                if let before = entry.sudsBefore {
                    sums.before += before
                    sums.beforeCount += 1
                }
                if let after = entry.sudsAfter {
                    sums.after += after
                    sums.afterCount += 1
                }
                rungSums[key] = sums
            }
            if let expect = entry.ratings.expectPct, let didHappen = entry.ratings.happened {
                answered += 1
                expectedSum += expect
                if didHappen { happened += 1 }
            }
        }

        private func practised(_ back: Int) -> Bool {
            back >= 0 && back < Self.streakLimit && days[back / 64] & (1 << UInt64(back % 64)) != 0
        }

        /// The statistics of the rounds taken so far.
        public var stats: PracticeStats {
            var stats = PracticeStats()
            stats.roundsToday = roundsToday
            stats.exposedMsToday = exposedMsToday
            var back = practised(0) ? 0 : 1
            while practised(back) {
                stats.streakDays += 1
                back += 1
            }
            stats.daysThisWeek = (0..<7).filter(practised).count
            func mean(_ sum: Int, _ count: Int) -> Double? {
                count == 0 ? nil : (Double(sum) / Double(count) * 10).rounded() / 10
            }
            stats.rungs = rungOrder.compactMap { key in
                guard let sums = rungSums[key] else { return nil }
                return RungDistress(ladder: key.ladder, rung: key.rung, rounds: sums.rounds,
                                    meanBefore: mean(sums.before, sums.beforeCount), meanAfter: mean(sums.after, sums.afterCount))
            }
            if answered > 0 {
                let meanExpected = Double(expectedSum) / Double(answered)
                let happenedPct = Double(happened) * 100 / Double(answered)
                stats.expectancy = Expectancy(rounds: answered, meanExpectedPct: Int(meanExpected.rounded()),
                                              happenedPct: Int(happenedPct.rounded()))
            }
            return stats
        }
    }
}
