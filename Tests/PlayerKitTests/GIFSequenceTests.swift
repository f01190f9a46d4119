// The GIF side of the round alone: GIFs from the feed, the frame schedule,
// loops and the `shown` of each, with no hold and no output.

@testable import PlayerKit
import RecordKit
import Testing

/// A sequence over `feed`, on a virtual clock unless `configure` says otherwise.
private func sequence(_ feed: FakeFeed, _ configure: (inout PlayerConfiguration) -> Void = { _ in })
    -> GIFSequence<FakeFeed> {
    var configuration = PlayerConfiguration()
    configuration.virtualClock = true
    configure(&configuration)
    return GIFSequence(feed: feed, configuration: configuration)
}

/// The frame a step draws; nil for a skip or the end.
private func drawn(_ step: GIFSequence<FakeFeed>.Step) -> Int? {
    if case .draw(_, let frame) = step { frame } else { nil }
}

@Suite struct GIFSequenceTests {
    @Test func framesKeepAnAbsoluteScheduleAndLoopBeforeTheGIFIsOver() {
        var gifs = sequence(FakeFeed()) { $0.loops = 2 }
        gifs.begin(FakeGIF("A", delays: [100, 50]), at: 0)
        #expect(gifs.frameEnd == 100)
        let steps = [(100, 150), (150, 250), (250, 300)].map { due, end in
            (drawn(gifs.nextFrame(after: due, time: due)), gifs.frameEnd == end)
        }
        let frames = steps.map { $0.0 }, onSchedule = steps.allSatisfy { $0.1 }
        #expect(frames == [1, 0, 1])
        #expect(onSchedule)
        guard case .over = gifs.nextFrame(after: 300, time: 300) else {
            Issue.record("the GIF should be over after two loops")
            return
        }
    }

    @Test func aRealClockBehindSkipsAFrameAlreadyDue() {
        var gifs = sequence(FakeFeed()) { $0.virtualClock = false }
        gifs.begin(FakeGIF("A", delays: [100, 100, 100]), at: 0)
        // Frame 1 ends at 200: looked at only at 250, it is not drawn.
        guard case .skip = gifs.nextFrame(after: 100, time: 250) else {
            Issue.record("a frame already due should be skipped")
            return
        }
        let next = drawn(gifs.nextFrame(after: 200, time: 250))
        #expect(next == 2)
    }

    @Test func aGIFTakenOffTheScreenIsCountedOnce() {
        var gifs = sequence(FakeFeed())
        gifs.begin(FakeGIF("A", delays: [100]), at: 40)
        gifs.played(60)
        #expect(gifs.gifsSeen == 1)
        let shown = gifs.takeOff(at: 100, completed: true)
        #expect(shown == RoundEvent.Shown(id: "A", section: "spiders", query: nil, startMs: 40, endMs: 100,
                                          exposedMs: 60, frames: 1, completed: true))
        #expect(gifs.gifsSeen == 1)
        let again = gifs.takeOff(at: 200, completed: false)
        #expect(again == nil)
    }

    @Test func aPausedGIFGoesOnWithWhatWasLeftOfItsFrame() {
        var gifs = sequence(FakeFeed())
        gifs.begin(FakeGIF("A", delays: [100, 100]), at: 0)
        gifs.pause(at: 30)
        #expect(gifs.nextDue(after: 30) == nil)
        let resumed = gifs.resume(at: 1000)
        #expect(resumed)
        #expect(gifs.frameEnd == 1070)
        let twice = gifs.resume(at: 2000)
        #expect(!twice)
    }

    @Test func theFeedsLinesComeFirstAndItsEndIsNotedOnlyWhenItFinished() {
        let feed = FakeFeed(closed: false)
        feed.ready = [([Array("x".utf8)], FakeGIF("A", delays: [100]), 20)]
        var gifs = sequence(feed)
        var lines: [[UInt8]] = []
        let next = gifs.next(lines: { lines += $0 })
        #expect(next?.gif.id == "A" && next?.at == 20)
        #expect(lines == [Array("x".utf8)])
        #expect(gifs.next(lines: { _ in }) == nil)
        gifs.noteNoneReady()
        #expect(!gifs.inputEnded && gifs.waitsForFeed)
        feed.closed = true
        gifs.noteNoneReady()
        #expect(gifs.inputEnded && gifs.isExhausted)
    }

    @Test func aGIFHeldBackIsGivenBeforeTheFeedsNext() {
        let feed = FakeFeed([FakeGIF("B", delays: [100])])
        var gifs = sequence(feed)
        gifs.holdBack(FakeGIF("A", delays: [100]), at: 500)
        #expect(gifs.next(lines: { _ in })?.gif.id == "A")
        #expect(gifs.nextDue(after: 0) == 500)
        gifs.begin(FakeGIF("A", delays: [100]), at: 500)
        #expect(gifs.waiting == nil)
        #expect(gifs.next(lines: { _ in })?.gif.id == "B")
    }
}
