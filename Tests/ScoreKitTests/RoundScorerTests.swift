import HistoryKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

@Suite struct RoundScorerTests {
    @Test func scoresANormalRound() throws {
        let (rounds, warnings) = score(Event.normalRound)
        #expect(warnings.isEmpty)
        let round = try #require(rounds.first)
        #expect(rounds.count == 1)
        #expect(round.exposedMs == 2200 + 2000 + 1500 + 1500 + 1280)
        #expect(round.longestHoldMs == 8600)
        #expect(round.holds == 1)
        #expect(round.gifsShown == 5)
        #expect(round.gifsCompleted == 4)
        #expect(round.stalls == 1)
        #expect(round.stallMs == 120)
        #expect(round.errors == 1)
        #expect(round.errorCodes == ["http_404": 1])
        #expect(round.incomplete == false)
        #expect(round.endReason == "released")
        #expect(round.durationMs == 9800)
        #expect(round.at == "2026-11-21T10:00:00Z")
        #expect(round.clock == "real")
        #expect(round.sections == [SectionExposure(name: "spiders", exposedMs: 8480, gifsShown: 5, gifsCompleted: 4)])
    }

    /// A round cut off while a GIF and a stall were on: no hold end, no session end.
    static let unfinished = [
        Event.start(),
        Event.shown("a", start: 0, end: 1000),
        Event.hold(0, 1000),
        Event.shown("b", start: 2000, end: 5000),
        Event.stall(5000, 5200),
    ]

    @Test func marksAStreamWithoutASessionEndIncomplete() throws {
        let (rounds, _) = score(Self.unfinished)
        let round = try #require(rounds.first)
        #expect(round.incomplete)
        #expect(round.endReason == nil)
        #expect(round.exposedMs == 4000)
        #expect(round.durationMs == 5200)
    }

    @Test func countsTheUnfinishedLastHoldOfAnIncompleteRoundFromItsGIFsAndStalls() throws {
        let (rounds, _) = score(Self.unfinished)
        let round = try #require(rounds.first)
        #expect(round.holds == 2)
        #expect(round.longestHoldMs == 3200)
    }

    @Test func infersNoHoldWhenTheLastHoldWasRecorded() throws {
        let (rounds, _) = score([Event.start(), Event.shown("a", start: 0, end: 1000), Event.hold(0, 1000)])
        let round = try #require(rounds.first)
        #expect(round.incomplete)
        #expect(round.holds == 1)
        #expect(round.longestHoldMs == 1000)
    }

    @Test func countsErrorsByCodeWhereverTheyStand() throws {
        let (rounds, _) = score([
            Event.error("http_404"),
            Event.start(),
            Event.error("timeout"),
            Event.shown("a", start: 0, end: 1000),
            Event.error("http_404"),
            Event.error("decode_failed", stage: "gif-play"),
            Event.hold(0, 1000),
            Event.end(1000),
            Event.error("not_gif"),
            #"{"kind":"error","stage":"fetch-images"}"#,
        ])
        let round = try #require(rounds.first)
        #expect(rounds.count == 1)
        #expect(round.errors == 6)
        #expect(round.errorCodes == ["http_404": 2, "timeout": 1, "decode_failed": 1, "not_gif": 1, "unknown": 1])
        #expect(round.errorsByCode.map(\.code) == ["decode_failed", "http_404", "not_gif", "timeout", "unknown"])
    }

    @Test func countsBadLinesAndGoesOn() throws {
        let (rounds, _) = score([
            "not json",
            Event.start(),
            "[1,2,3]",
            Event.shown("a", start: 0, end: 1000),
            #"{"kind":"shown","#,
            Event.hold(0, 1000),
            Event.end(1000),
        ])
        let round = try #require(rounds.first)
        #expect(round.badLines == 3)
        #expect(round.exposedMs == 1000)
        #expect(round.incomplete == false)
    }

    @Test func skipsMalformedEventsWithAWarning() throws {
        let (rounds, warnings) = score([
            Event.start(),
            #"{"kind":"shown","id":"a","exposed_ms":"lots"}"#,
            #"{"kind":"hold","down_ms":500,"up_ms":100}"#,
            #"{"kind":"stall","start_ms":1}"#,
            #"{"kind":"session","event":"pause"}"#,
            Event.shown("b", start: 0, end: 700),
            Event.end(700),
        ])
        let round = try #require(rounds.first)
        #expect(warnings.count == 4)
        #expect(warnings[0].contains("exposed_ms"))
        #expect(round.exposedMs == 700)
        #expect(round.gifsShown == 1)
        #expect(round.holds == 0)
        #expect(round.stalls == 0)
    }

    @Test func addsUpSeveralHoldsInPauseMode() throws {
        let (rounds, _) = score([
            Event.start(onRelease: "pause"),
            Event.hold(0, 2000),
            Event.shown("a", start: 0, end: 4000, exposed: 3000),
            Event.hold(3000, 6000),
            Event.hold(8000, 9000),
            Event.shown("b", start: 4000, end: 9000, exposed: 3000, completed: false),
            Event.end(9500, reason: "quit"),
        ])
        let round = try #require(rounds.first)
        #expect(round.holds == 3)
        #expect(round.longestHoldMs == 3000)
        #expect(round.exposedMs == 6000)
        #expect(round.gifsShown == 2)
        #expect(round.gifsCompleted == 1)
        #expect(round.endReason == "quit")
        #expect(round.durationMs == 9500)
    }

    @Test func splitsExposureBySectionInTheOrderSectionsAppear() throws {
        let (rounds, _) = score([
            Event.start(),
            Event.shown("a", section: "spiders", start: 0, end: 1000),
            Event.shown("b", section: "snakes", start: 1000, end: 3500, completed: false),
            Event.shown("c", section: "spiders", start: 3500, end: 4000),
            Event.shown("d", section: nil, start: 4000, end: 4200),
            #"{"kind":"shown","id":"e","query":"heights","start_ms":4200,"end_ms":4300,"exposed_ms":100,"completed":true}"#,
            Event.hold(0, 4300),
            Event.end(4300),
        ])
        let round = try #require(rounds.first)
        #expect(round.sections == [
            SectionExposure(name: "spiders", exposedMs: 1500, gifsShown: 2, gifsCompleted: 2),
            SectionExposure(name: "snakes", exposedMs: 2500, gifsShown: 1, gifsCompleted: 0),
            SectionExposure(name: "heights", exposedMs: 100, gifsShown: 1, gifsCompleted: 1),
        ])
        #expect(round.exposedMs == 4300)
    }

    @Test func makesOneRoundPerSession() throws {
        let (rounds, _) = score([
            Event.start(at: "2026-11-21T10:00:00Z"),
            Event.shown("a", start: 0, end: 1000),
            Event.hold(0, 1000),
            Event.end(1000),
            Event.error("http_500"),
            Event.start(at: "2026-11-21T10:05:00Z"),
            Event.shown("b", start: 0, end: 2000),
            Event.hold(0, 2000),
            Event.end(2000),
        ])
        #expect(rounds.count == 2)
        #expect(rounds.map(\.exposedMs) == [1000, 2000])
        #expect(rounds.map(\.at) == ["2026-11-21T10:00:00Z", "2026-11-21T10:05:00Z"])
        #expect(rounds[0].errors == 1)
        #expect(rounds[1].errors == 0)
    }

    @Test func closesARoundLeftOpenWhenTheNextStarts() throws {
        let (rounds, _) = score([
            Event.start(),
            Event.shown("a", start: 0, end: 1000),
            Event.start(),
            Event.shown("b", start: 0, end: 500),
            Event.end(500),
        ])
        #expect(rounds.count == 2)
        #expect(rounds[0].incomplete)
        #expect(rounds[1].incomplete == false)
    }

    @Test func scoresEventsWhoseSessionStartWasCutOff() throws {
        let (rounds, _) = score([Event.shown("a", start: 0, end: 1000), Event.hold(0, 1000), Event.end(1000)])
        let round = try #require(rounds.first)
        #expect(round.started == false)
        #expect(round.incomplete == false)
        #expect(round.exposedMs == 1000)
    }

    @Test func findsNoRoundInAStreamWithoutEvents() {
        let (rounds, _) = score([Event.error("http_404"), #"{"kind":"image","id":"a"}"#, "bad"])
        #expect(rounds.isEmpty)
    }

    @Test func ignoresRecordsOfOtherKinds() throws {
        let (rounds, warnings) = score([
            Event.start(), #"{"kind":"image","id":"a","path":"/x.gif"}"#, #"{"kind":"note","text":"hi"}"#,
            Event.shown("a", start: 0, end: 100), Event.end(100),
        ])
        #expect(warnings.isEmpty)
        #expect(try #require(rounds.first).exposedMs == 100)
    }
}
