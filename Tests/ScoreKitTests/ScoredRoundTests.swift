import HistoryKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

@Suite struct ScoredRoundTests {
    @Test func writesTheScoreRecordFieldByField() throws {
        let round = try #require(score(Event.normalRound).rounds.first)
        var scored = ScoredRound(round: round, distress: Distress(before: 7, after: 4))
        scored.judge(against: 6000)
        #expect(scored.scoreRecord().text == """
            {"kind":"score","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,"gifs_shown":5,"gifs_completed":4,\
            "stalls":1,"stall_ms":120,"errors":1,"error_codes":{"http_404":1},\
            "sections":{"spiders":{"exposed_ms":8480,"gifs_shown":5,"gifs_completed":4}},"points":104,\
            "personal_best":true,"previous_best_ms":6000,"incomplete":false,"reason":"released","duration_ms":9800,\
            "at":"2026-11-21T10:00:00Z","clock":"real","bad_lines":0,"distress_before":7,"distress_after":4}
            """)
    }

    @Test func writesNullsForWhatIsUnknown() throws {
        let round = try #require(score([Event.start(at: nil, clock: "virtual"), Event.shown("a", section: nil, start: 0, end: 50)]).rounds.first)
        let record = ScoredRound(round: round).scoreRecord()
        #expect(record.text.contains(#""error_codes":{},"sections":{},"points":5,"personal_best":null,"previous_best_ms":null,"incomplete":true,"reason":null"#))
        #expect(record.text.hasSuffix(#""at":null,"clock":"virtual","bad_lines":0,"distress_before":null,"distress_after":null}"#))
    }

    /// Issue "Hostile input, third pass", item 9: after Ctrl-C at the questions
    /// after the round, the player's distress before stood alone; the score
    /// record said `distress_before: null` while the history line said 7.
    @Test func aDistressRatedAloneIsInTheRecordAsInTheHistory() throws {
        let lines = [Event.start(), #"{"kind":"rating","when":"before","suds":7,"expect_pct":60}"#,
                     Event.shown("a", start: 0, end: 2000), Event.hold(0, 2000), Event.end(2000)]
        let round = try #require(score(lines).rounds.first)
        let scored = ScoredRound(round: round, distress: round.ratings.distress)
        let record = scored.scoreRecord()
        let entry = scored.historyEntry(fallbackAt: "2026-11-21T10:00:00Z")
        #expect(entry.sudsBefore == 7)
        #expect(record.int("distress_before") == 7, "\(record.text)")
        #expect(record.has("distress_after") && record.int("distress_after") == nil, "\(record.text)")
    }

    @Test func callsTheFirstRoundWithExposureAPersonalBest() {
        var scored = ScoredRound(round: roundOf(exposedMs: 100))
        scored.judge(against: nil)
        #expect(scored.personalBest == true)
        #expect(scored.previousBestMs == nil)
    }

    @Test func needsMoreThanTheBestForAPersonalBest() {
        var tie = ScoredRound(round: roundOf(exposedMs: 5000))
        tie.judge(against: 5000)
        #expect(tie.personalBest == false)
        var better = ScoredRound(round: roundOf(exposedMs: 5001))
        better.judge(against: 5000)
        #expect(better.personalBest == true)
        var nothing = ScoredRound(round: roundOf(exposedMs: 0))
        nothing.judge(against: nil)
        #expect(nothing.personalBest == false)
    }

    @Test func leavesThePersonalBestUnknownWithoutAHistory() {
        #expect(ScoredRound(round: roundOf(exposedMs: 100)).personalBest == nil)
    }

    @Test func datesTheHistoryEntryFromTheSessionElseTheFallback() throws {
        let dated = try #require(score(Event.normalRound).rounds.first)
        #expect(ScoredRound(round: dated).historyEntry(fallbackAt: "2030-01-01T00:00:00Z").at == "2026-11-21T10:00:00Z")
        let undated = try #require(score([Event.start(at: nil), Event.end(10)]).rounds.first)
        #expect(ScoredRound(round: undated).historyEntry(fallbackAt: "2030-01-01T00:00:00Z").at == "2030-01-01T00:00:00Z")
        #expect(ScoredRound(round: undated, at: "2026-01-02T03:04:05Z").historyEntry(fallbackAt: "x").at == "2026-01-02T03:04:05Z")
    }

    @Test func keepsTheRoundsNumbersSectionsAndDistressInTheHistoryEntry() throws {
        let round = try #require(score(Event.normalRound).rounds.first)
        let entry = ScoredRound(round: round, distress: Distress(before: 8, after: 3)).historyEntry(fallbackAt: "x")
        #expect(entry.record().text == """
            {"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,\
            "gifs_shown":5,"gifs_completed":4,"stalls":1,"stall_ms":120,"errors":1,"points":104,"incomplete":false,\
            "duration_ms":9800,"sections":{"spiders":8480},"distress_before":8,"distress_after":3}
            """)
    }

    private func roundOf(exposedMs: Int) -> Round {
        var round = Round()
        round.exposedMs = exposedMs
        round.ended = true
        return round
    }
}
