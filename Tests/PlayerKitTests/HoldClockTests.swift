// The hold side of the round alone: holds, the time accounted for, exposure
// against the limit, and stalls, with no GIF and no output.

@testable import PlayerKit
import Testing

/// A clock of a round configured by `configure`.
private func makeClock(_ configure: (inout PlayerConfiguration) -> Void = { _ in }) -> HoldClock {
    var configuration = PlayerConfiguration()
    configure(&configuration)
    return HoldClock(configuration: configuration)
}

@Suite struct HoldClockTests {
    @Test func exposureStopsAtTheTimeLimitToTheMillisecond() {
        var clock = makeClock { $0.timeLimitMs = 1000 }
        clock.holdDown(at: 0)
        let first = clock.expose(until: 600)
        #expect(first.ms == 600 && !first.limitReached)
        let second = clock.expose(until: 1500)
        #expect(second.ms == 400 && second.limitReached)
        #expect(clock.exposedMs == 1000)
        #expect(clock.accountedUntil == 1000)
    }

    @Test func aWaitForTheFeedIsAStallWrittenWhenItEnds() {
        var clock = makeClock()
        clock.holdDown(at: 100)
        clock.waitForFeed(until: 400, stopping: false)
        #expect(clock.isStalled)
        #expect(clock.accountedUntil == 400)
        let stall = clock.endStall(at: 450)
        #expect(stall == .stall(startMs: 100, endMs: 450))
        #expect(!clock.isStalled)
    }

    @Test func aStallThatTookNoTimeIsNotWritten() {
        var clock = makeClock()
        clock.holdDown(at: 100)
        clock.waitForFeed(until: 100, stopping: false)
        let stall = clock.endStall(at: 100)
        #expect(stall == nil)
    }

    @Test func aGIFArrivingLaterWaitsAndTheWaitIsAStall() {
        var clock = makeClock()
        clock.holdDown(at: 0)
        let early = clock.begin(availableAt: 500, upTo: 200, stopping: false)
        #expect(early == nil)
        #expect(clock.accountedUntil == 200)
        let begun = clock.begin(availableAt: 500, upTo: 600, stopping: false)
        #expect(begun?.start == 500)
        #expect(begun?.stall == .stall(startMs: 0, endMs: 500))
    }

    @Test func aGIFReadyAsTheHoldEndsWaitsForTheNextHoldWithoutAStall() {
        var clock = makeClock()
        clock.holdDown(at: 300)
        let begun = clock.begin(availableAt: 0, upTo: 300, stopping: true)
        #expect(begun == nil)
        #expect(!clock.isStalled)
    }

    @Test func aSuspendPausesWhateverOnReleaseSaysUntilTheNextHold() {
        var clock = makeClock { $0.onRelease = .end }
        clock.holdDown(at: 0)
        let hold = clock.letGo(at: 50, suspending: true)
        #expect(hold == .hold(downMs: 0, upMs: 50))
        #expect(!clock.isHeld)
        #expect(clock.pausesOnRelease)
        #expect(clock.endsOnRelease)
        clock.holdDown(at: 100)
        #expect(!clock.pausesOnRelease)
    }

    @Test func anIdleRoundEndsEofWhenHeldThroughoutOrNeverElseReleased() {
        var never = makeClock { $0.hold = .mouse }
        #expect(never.endWhenIdle == .eof)
        never.holdDown(at: 0)
        _ = never.letGo(at: 10)
        #expect(never.endWhenIdle == .released)
        #expect(makeClock { $0.hold = .always }.endWhenIdle == .eof)
    }
}
