import HistoryKit
import ScoreKit
import Testing

@Suite struct LifetimeScreenTests {
    @Test func showsTheStatisticsWithASparkline() {
        var entries = rounds([60_000, 90_000, 134_000, 120_000])
        entries[0].distress = Distress(before: 8, after: 6)
        entries[3].distress = Distress(before: 6, after: 3)
        let lines = LifetimeScreen.lines(LifetimeStats(entries: entries), style: .plain)
        #expect(lines == [
            "  Sposure: 4 rounds, 2026-11-01 to 2026-11-04",
            "  Exposure      6m 44s in all, 1m 41s a round",
            "  Best          2m 14s, round 3 (2026-11-03)",
            "  Trend         last 2: 2m 07s a round, up 52s on the 2 before",
            "  Per round     ▄▆█▇  oldest → latest",
            "  Distress      7.0 before, 4.5 after on average (2 rated rounds)",
            "                before a round: 8.0 in the first 1 rated, 6.0 in the last 1: falling",
        ])
    }

    @Test func saysSoWhenThereAreNoRounds() {
        let lines = LifetimeScreen.lines(LifetimeStats(entries: []), style: .plain)
        #expect(lines.count == 1)
        #expect(lines[0].contains("No rounds yet"))
    }

    @Test func coloursOnlyWhenAsked() {
        let entries = rounds([1000, 2000])
        let plain = LifetimeScreen.lines(LifetimeStats(entries: entries), style: .plain)
        let colored = LifetimeScreen.lines(LifetimeStats(entries: entries), style: TextStyle(color: true))
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(colored.joined().contains("\u{1B}["))
    }
}
