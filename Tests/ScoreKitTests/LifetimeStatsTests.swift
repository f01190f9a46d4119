import HistoryKit
import ScoreKit
import SposureKit
import Testing

@Suite struct LifetimeStatsTests {
    @Test func countsRoundsAndExposure() {
        let stats = LifetimeStats(entries: rounds([1000, 2000, 4000]))
        #expect(stats.rounds == 3)
        #expect(stats.totalExposedMs == 7000)
        #expect(stats.averageExposedMs == 2333)
        #expect(stats.exposures == [1000, 2000, 4000])
        #expect(stats.firstAt == "2026-11-01T10:00:00Z")
        #expect(stats.lastAt == "2026-11-03T10:00:00Z")
    }

    @Test func findsTheBestRoundAndTheEarliestOnATie() throws {
        let stats = LifetimeStats(entries: rounds([1000, 5000, 2000, 5000]))
        let best = try #require(stats.best)
        #expect(best.number == 2)
        #expect(best.at == "2026-11-02T10:00:00Z")
        #expect(best.exposedMs == 5000)
        #expect(best.points == 50)
    }

    @Test func comparesTheLastFiveRoundsWithTheFiveBefore() throws {
        let stats = LifetimeStats(entries: rounds([100_000] + Array(repeating: 10_000, count: 5) + Array(repeating: 20_000, count: 5)))
        let trend = try #require(stats.trend)
        #expect(trend.window == 5)
        #expect(trend.previousMeanMs == 10_000)
        #expect(trend.recentMeanMs == 20_000)
        #expect(trend.changeMs == 10_000)
        #expect(trend.direction == "up")
    }

    @Test func comparesHalvesWhenThereAreFewerThanTenRounds() throws {
        let trend = try #require(LifetimeStats(entries: rounds([9000, 6000, 3000])).trend)
        #expect(trend.window == 1)
        #expect(trend.previousMeanMs == 6000)
        #expect(trend.recentMeanMs == 3000)
        #expect(trend.direction == "down")
    }

    @Test func callsASmallChangeFlat() throws {
        #expect(try #require(LifetimeStats(entries: rounds([60_000, 61_000])).trend).direction == "flat")
    }

    @Test func hasNoTrendOrBestWithoutEnoughRounds() {
        #expect(LifetimeStats(entries: rounds([5000])).trend == nil)
        let empty = LifetimeStats(entries: [])
        #expect(empty.best == nil)
        #expect(empty.averageExposedMs == 0)
        #expect(empty.distress == nil)
    }

    @Test func showsHowDistressFallsAcrossRounds() throws {
        var entries = rounds(Array(repeating: 1000, count: 8))
        let ratings = [(9, 7), (8, 6), nil, (8, 5), (6, 4), (5, 3), (4, 2), (3, 1)]
        for (index, rating) in ratings.enumerated() {
            entries[index].distress = rating.flatMap { Distress(before: $0.0, after: $0.1) }
        }
        let distress = try #require(LifetimeStats(entries: entries).distress)
        #expect(distress.rated == 7)
        #expect(distress.window == 3)
        let early: Double = 25.0 / 3
        let recent: Double = 12.0 / 3
        #expect(distress.earlyBefore == early)
        #expect(distress.recentBefore == recent)
        #expect(distress.falling == true)
        #expect(abs(distress.meanBefore - 43.0 / 7) < 1e-9)
        #expect(abs(distress.meanDrop - 15.0 / 7) < 1e-9)
    }

    @Test func writesTheHistoryRecord() {
        var entries = rounds([1000, 2000, 4000, 3000])
        entries[1].distress = Distress(before: 8, after: 5)
        entries[3].distress = Distress(before: 6, after: 5)
        #expect(LifetimeStats(entries: entries).record().text == """
            {"kind":"history","rounds":4,"total_exposed_ms":10000,"average_exposed_ms":2500,\
            "best":{"round":3,"at":"2026-11-03T10:00:00Z","exposed_ms":4000,"points":40},\
            "trend":{"window":2,"recent_mean_ms":3500,"previous_mean_ms":1500,"change_ms":2000,"direction":"up"},\
            "distress":{"rated_rounds":2,"mean_before":7.0,"mean_after":5.0,"mean_drop":2.0,"window":1,\
            "early_before":8.0,"recent_before":6.0,"falling":true},\
            "first_at":"2026-11-01T10:00:00Z","last_at":"2026-11-04T10:00:00Z"}
            """)
    }

    @Test func writesNullsForAnEmptyHistory() {
        #expect(LifetimeStats(entries: []).record().text == """
            {"kind":"history","rounds":0,"total_exposed_ms":0,"average_exposed_ms":0,"best":null,"trend":null,\
            "distress":null,"first_at":null,"last_at":null}
            """)
    }
}

/// Rounds of the given exposures, one a day from 2026-11-01.
func rounds(_ exposures: [Int]) -> [HistoryEntry] {
    exposures.enumerated().map { index, ms in
        let day = index + 1 < 10 ? "0\(index + 1)" : "\(index + 1)"
        return HistoryEntry(at: "2026-11-\(day)T10:00:00Z", exposedMs: ms)
    }
}
