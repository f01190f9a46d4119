import Foundation
import LadderKit
import HistoryKit
import RecordKit
@testable import ScoreKit
import SposureKit
import Testing

/// Statistics added up one round at a time give what the whole array of
/// rounds gave before (issue 16: `score history` held every round in memory).
@Suite struct LifetimeStatsAccumulatorTests {
    @Test func manyRoundsStreamedGiveTheWholeArrayFigures() {
        let entries = manyRounds(5_000)
        var accumulator = LifetimeStats.Accumulator()
        for entry in entries { accumulator.add(entry) }
        let streamed = accumulator.stats
        #expect(streamed == referenceStats(entries))
        #expect(streamed.record().text == referenceStats(entries).record().text)
        #expect(streamed.exposures.count == LifetimeStats.latestCount)
        #expect(streamed.best?.number == 2_414)
    }

    @Test func everyShortHistoryAndWindowGivesTheWholeArrayFigures() {
        let entries = manyRounds(40)
        for count in 0...entries.count {
            for window in [0, 1, 3, 5, 12] {
                let prefix = Array(entries.prefix(count))
                #expect(LifetimeStats(entries: prefix, window: window) == referenceStats(prefix, window: window),
                        "\(count) rounds, window \(window)")
            }
        }
    }

    @Test func theScreenNamesTheLastSixtyOfALongHistory() {
        let stats = LifetimeStats(entries: manyRounds(61))
        let row = LifetimeScreen.lines(stats, style: .plain).first { $0.contains("Per round") }
        #expect(row?.hasSuffix("  the last 60, oldest → latest") == true)
        let short = LifetimeScreen.lines(LifetimeStats(entries: manyRounds(60)), style: .plain).first { $0.contains("Per round") }
        #expect(short?.hasSuffix("  oldest → latest") == true)
        #expect(short?.contains("the last") == false)
    }
}

/// `count` rounds, some hours apart, with ties for the best, distress on some,
/// and ladder rounds with the player's ratings on others (a fixed sequence).
func manyRounds(_ count: Int, from start: Date = Date(timeIntervalSince1970: 1_577_865_600)) -> [HistoryEntry] {
    var seed: UInt64 = 16
    func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
    var at = start
    return (0..<count).map { index in
        at += TimeInterval(300 + next(4 * 3600))
        // A round every 2,414th has the most exposure, so the best has ties to lose.
        let exposed = index % 2_414 == 2_413 ? 299_999 : 1_000 + next(290_000)
        var entry = HistoryEntry(at: Timestamp.format(at), exposedMs: exposed, gifsCompleted: next(30))
        switch index % 4 {
        case 0, 1: entry.distress = Distress(before: next(11), after: next(11))
        case 2:
            entry.ladder = LadderTag(ladder: next(2) == 0 ? "spiders" : "snakes", rung: 1 + next(8), rungSuds: 10 * next(10))
            entry.ratings = RoundRatings(sudsBefore: next(3) == 0 ? nil : next(11), expectPct: next(2) == 0 ? nil : 10 * next(11),
                                         peak: next(11), sudsAfter: next(3) == 0 ? nil : next(11),
                                         happened: next(2) == 0 ? nil : next(5) == 0)
        default: break
        }
        return entry
    }
}

/// The statistics as `LifetimeStats(entries:)` computed them over the whole
/// array before issue 16, kept as the reference for the accumulator (only
/// `exposures` is now the latest 60).
func referenceStats(_ entries: [HistoryEntry], window: Int = 5) -> LifetimeStats {
    func mean(_ values: some Collection<Int>) -> Int {
        values.isEmpty ? 0 : Int((Double(values.reduce(0, +)) / Double(values.count)).rounded())
    }
    func meanReal(_ values: [Int]) -> Double {
        values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count)
    }
    var stats = LifetimeStats(entries: [])
    stats.rounds = entries.count
    let exposures = entries.map(\.exposedMs)
    stats.exposures = Array(exposures.suffix(LifetimeStats.latestCount))
    stats.totalExposedMs = exposures.reduce(0, +)
    stats.averageExposedMs = entries.isEmpty ? 0 : Int((Double(stats.totalExposedMs) / Double(entries.count)).rounded())
    stats.firstAt = entries.first?.at
    stats.lastAt = entries.last?.at
    if let index = entries.indices.max(by: { entries[$0].exposedMs < entries[$1].exposedMs || (entries[$0].exposedMs == entries[$1].exposedMs && $0 > $1) }) {
        let entry = entries[index]
        stats.best = LifetimeStats.Best(number: index + 1, at: entry.at, exposedMs: entry.exposedMs, points: entry.points)
    }
    let half = min(window, entries.count / 2)
    if half >= 1 {
        let recent = exposures.suffix(half)
        let previous = exposures.dropLast(half).suffix(half)
        stats.trend = LifetimeStats.Trend(window: half, recentMeanMs: mean(recent), previousMeanMs: mean(previous))
    }
    let rated = entries.compactMap(\.distress)
    if !rated.isEmpty {
        let count = Double(rated.count)
        let ratedHalf = min(window, rated.count / 2)
        stats.distress = LifetimeStats.DistressTrend(
            rated: rated.count,
            meanBefore: Double(rated.map(\.before).reduce(0, +)) / count,
            meanAfter: Double(rated.map(\.after).reduce(0, +)) / count,
            window: ratedHalf,
            earlyBefore: ratedHalf >= 1 ? meanReal(rated.prefix(ratedHalf).map(\.before)) : nil,
            recentBefore: ratedHalf >= 1 ? meanReal(rated.suffix(ratedHalf).map(\.before)) : nil)
    }
    return stats
}
