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
            "  Errors        3 GIFs could not be shown (2 gone, 1 too slow)",
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

    /// Issue 29 #8: a round whose query gave 5 GIFs ended at the end of its
    /// input while the button was held (`eof`); Game Over said nothing of it.
    @Test func issue29_8_aRoundWhoseGIFsRanOutWhileHeldSaysSoAndWhatToDo() throws {
        let ladderShown = #"{"kind":"shown","id":"a","section":"spider drawing","query":"spider drawing","start_ms":0,"end_ms":1100,"exposed_ms":1100,"frames":3,"completed":true,"provider":"klipy","ladder":"spiders","rung":1,"rung_suds":5}"#
        let ladder = try #require(score([Event.start(), ladderShown, Event.hold(0, 1100), Event.end(1100, reason: "eof")]).rounds.first)
        let lines = RoundScreen.lines(ScoredRound(round: ladder), style: .plain)
        let at = try #require(lines.firstIndex { $0.hasPrefix("  GIFs") })
        #expect(Array(lines[at...(at + 4)]) == [
            "  GIFs          1 shown, 1 watched to the end",
            "  Ended         the GIFs ran out while you held on: it was not you letting go",
            "  More GIFs     widen the rung: score ladder spiders --copy, then add queries to it",
            "                or mix in rungs you climbed: sposure play --ladder spiders --mix",
            "                or ask the other provider: sposure play --ladder spiders --provider giphy",
        ])

        let query = try #require(score([Event.start(), Event.shown("a", start: 0, end: 1100), Event.hold(0, 1100),
                                        Event.end(1100, reason: "eof")]).rounds.first)
        let plain = RoundScreen.lines(ScoredRound(round: query), style: .plain)
        #expect(plain.contains("  Ended         the GIFs ran out while you held on: it was not you letting go"))
        #expect(plain.contains("  More GIFs     search wider: fewer or more common words, or more queries"))
        #expect(plain.contains("                or ask the other provider: sposure play --provider klipy"))
    }

    /// Issue 29 #8: the same end reason after letting go (a pause, the end
    /// of input) or before any hold is no running out.
    @Test func anEndOfInputAfterLettingGoOrBeforeAnyHoldIsNoRunningOut() throws {
        let paused = try #require(score([Event.start(onRelease: "pause"), Event.shown("a", start: 0, end: 900),
                                         Event.hold(0, 900), Event.end(2000, reason: "eof")]).rounds.first)
        let never = try #require(score([Event.start(), Event.end(0, reason: "eof")]).rounds.first)
        let released = try #require(score(Event.normalRound).rounds.first)
        for round in [paused, never, released] {
            #expect(!round.ranOut)
            #expect(!RoundScreen.lines(ScoredRound(round: round), style: .plain).contains { $0.contains("ran out") || $0.contains("More GIFs") })
        }
    }

    /// Issue 29 #9: the Errors row said `http_404 ×1, not_gif ×1` where a
    /// person needs to know what became of the GIFs.
    @Test func issue29_9_theErrorsRowSaysHowManyGIFsCouldNotBeShownAndWhy() throws {
        let round = try #require(score(Event.normalRound.dropLast(2) + [Event.error("not_gif"), Event.error("http_404"),
                                 Event.error("list_ended", stage: "giphy-pages list")] + Event.normalRound.suffix(2)).rounds.first)
        let lines = RoundScreen.lines(ScoredRound(round: round), style: .plain)
        #expect(lines.contains("  Errors        3 GIFs could not be shown (2 gone, 1 not a GIF); 1 other error: list_ended ×1"), "\(lines)")
        let two = try #require(score([Event.start(), Event.error("http_404"), Event.error("not_gif", stage: "gif-play"),
                                      Event.shown("a", start: 0, end: 900), Event.hold(0, 900), Event.end(900)]).rounds.first)
        #expect(RoundScreen.lines(ScoredRound(round: two), style: .plain).contains("  Errors        2 GIFs could not be shown (1 gone, 1 not a GIF)"))
        let page = try #require(score([Event.start(), Event.error("timeout", stage: "giphy-pages list"), Event.end(0)]).rounds.first)
        #expect(RoundScreen.lines(ScoredRound(round: page), style: .plain).contains("  Errors        1 error: timeout ×1"))
    }
}
