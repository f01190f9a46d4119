import HistoryKit
import ScoreKit
import Testing
import TestSupport

@Suite struct RoundScreenTests {
    @Test func drawsTheGameOverScreen() throws {
        let round = try #require(score(Event.normalRound + [Event.error("http_404"), Event.error("timeout")]).rounds.first)
        var scored = ScoredRound(round: round, distress: Distress(before: 7, after: 4))
        scored.judge(against: 6000)
        #expect(RoundScreen.lines(scored, style: .plain) == [
            "  G A M E   O V E R",
            "  " + String(repeating: "─", count: 47),
            "  Exposure      8.4s   ★ personal best (was 6s)",
            "  Points        104",
            "  Longest hold  8.6s   (1 hold)",
            "  GIFs          5 shown, 4 watched to the end",
            "  Stalls        1, 0.1s loading (not counted against you)",
            "  Errors        3: http_404 ×2, timeout ×1",
            "  Sections      spiders   8.4s   5 GIFs",
            "  Distress      7 → 4  down 3",
        ])
    }

    @Test func marksAnIncompleteRoundAndBadLines() throws {
        let round = try #require(score([Event.start(), "oops", Event.shown("a", section: nil, start: 0, end: 134_000)]).rounds.first)
        let lines = RoundScreen.lines(ScoredRound(round: round), style: .plain)
        #expect(lines[0] == "  G A M E   O V E R   (incomplete: the stream ended before the round did)")
        #expect(lines.contains("  Exposure      2m 14s"))
        #expect(lines.contains("  Bad lines     1 skipped (not JSON)"))
        #expect(lines.contains("  Errors        none"))
        #expect(!lines.contains { $0.contains("Sections") })
    }

    @Test func alignsSectionsInColumns() throws {
        let round = try #require(score([
            Event.start(),
            Event.shown("a", section: "spiders", start: 0, end: 100_000),
            Event.shown("b", section: "snakes", start: 100_000, end: 134_000, completed: false),
            Event.end(134_000),
        ]).rounds.first)
        let lines = RoundScreen.lines(ScoredRound(round: round), style: .plain)
        #expect(lines.contains("  Sections      spiders   1m 40s   1 GIF"))
        #expect(lines.contains("                snakes       34s   1 GIF"))
    }

    @Test func coloursOnlyWhenAsked() throws {
        let round = try #require(score(Event.normalRound).rounds.first)
        #expect(!RoundScreen.lines(ScoredRound(round: round), style: .plain).joined().contains("\u{1B}"))
        #expect(RoundScreen.lines(ScoredRound(round: round), style: TextStyle(color: true)).joined().contains("\u{1B}[1m"))
    }
}
