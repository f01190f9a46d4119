import Foundation
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit
import Testing

/// What `score history` adds for practice: today, the streak, days this week
/// against 3–5, distress per rung and expectancy, by local date (issue 15).
@Suite struct PracticeStatsTests {
    let utc = TimeZone(identifier: "UTC")!
    let now = Date(timeIntervalSince1970: 1_795_255_200)  // 2026-11-21T10:00:00Z

    func entry(_ at: String, _ exposed: Int = 60_000) -> HistoryEntry { HistoryEntry(at: at, exposedMs: exposed) }

    @Test func countsTodayTheStreakAndTheWeek() {
        #expect(Timestamp.format(now) == "2026-11-21T10:00:00Z")
        let entries = [
            entry("2026-11-10T10:00:00Z"),                                         // outside the week
            entry("2026-11-17T10:00:00Z"),
            entry("2026-11-19T10:00:00Z"), entry("2026-11-20T10:00:00Z"),
            entry("2026-11-21T08:00:00Z", 30_000), entry("2026-11-21T09:00:00Z", 45_000),
        ]
        let stats = PracticeStats(entries: entries, now: now, offset: .zone(utc))
        #expect(stats.roundsToday == 2)
        #expect(stats.exposedMsToday == 75_000)
        #expect(stats.streakDays == 3)       // the 19th, 20th and today
        #expect(stats.daysThisWeek == 4)     // the 17th, 19th, 20th, 21st
        #expect(PracticeStats.recommendedDays == 3...5)
    }

    @Test func aStreakRunsToYesterdayBeforeTodaysFirstRound() {
        let stats = PracticeStats(entries: [entry("2026-11-19T10:00:00Z"), entry("2026-11-20T10:00:00Z")], now: now, offset: .zone(utc))
        #expect(stats.roundsToday == 0)
        #expect(stats.streakDays == 2)
        let broken = PracticeStats(entries: [entry("2026-11-19T10:00:00Z")], now: now, offset: .zone(utc))
        #expect(broken.streakDays == 0)
    }

    @Test func daysAreLocalDates() {
        // 23:30 UTC on the 20th is the 21st in Tokyo (UTC+9): today there, yesterday in UTC.
        let late = [entry("2026-11-20T23:30:00Z")]
        let tokyo = PracticeStats(entries: late, now: now, offset: .zone(TimeZone(identifier: "Asia/Tokyo")!))
        #expect(tokyo.roundsToday == 1)
        let london = PracticeStats(entries: late, now: now, offset: .zone(utc))
        #expect(london.roundsToday == 0)
        #expect(london.streakDays == 1)
    }

    @Test func groupsDistressByRungAndComparesExpectancyWithWhatHappened() {
        var a = entry("2026-11-20T10:00:00Z")
        a.ladder = LadderTag(ladder: "spiders", rung: 1, rungSuds: 5)
        a.distress = Distress(before: 6, after: 2)
        a.ratings = RoundRatings(expectPct: 80, peak: 7, happened: false)
        var b = entry("2026-11-21T09:00:00Z")
        b.ladder = LadderTag(ladder: "spiders", rung: 1, rungSuds: 5)
        b.ratings = RoundRatings(sudsBefore: 5, expectPct: 50, happened: true)
        var c = entry("2026-11-21T09:30:00Z")
        c.ladder = LadderTag(ladder: "spiders", rung: 2, rungSuds: 10)
        let stats = PracticeStats(entries: [a, entry("2026-11-21T08:00:00Z"), b, c], now: now, offset: .zone(utc))
        #expect(stats.rungs.map { "\($0.ladder) \($0.rung): \($0.rounds), \($0.meanBefore.map { "\($0)" } ?? "-") \($0.meanAfter.map { "\($0)" } ?? "-")" }
            == ["spiders 1: 2, 5.5 2.0", "spiders 2: 1, - -"])
        #expect(stats.expectancy?.rounds == 2)
        #expect(stats.expectancy?.meanExpectedPct == 65)
        #expect(stats.expectancy?.happenedPct == 50)
        #expect(stats.lines(style: .plain) == [
            "",
            "  Today         3 rounds, 3m 00s",
            "  Streak        2 days",
            "  This week     2 of 7 days (guidance: 3–5)",
            "  Distress by rung (before → after):",
            "    spiders rung 1: 2 rounds, 5.5 → 2.0",
            "    spiders rung 2: 1 round, – → –",
            "  Feared outcome: expected 65% likely, happened in 50% of 2 rounds",
        ])
    }
}
