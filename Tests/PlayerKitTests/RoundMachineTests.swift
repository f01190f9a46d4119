// The round's state machine driven directly, on a virtual clock of the
// test's own: no terminal, no decoder, no threads. GIFs are lists of frame
// delays; the feed hands them over when the test says.

import RecordKit
import LadderKit
import PlayerKit
import SposureKit
import Testing

/// A GIF of known delays whose frames are decoded as far as the test says.
final class FakeGIF: RoundGIF {
    let id: String
    let section: String
    let query: String?
    let delays: [Int]
    /// Frames decoded so far; the frames end once all are.
    var decoded: Int
    /// A ladder round's fields, its provider, and whether it is a still (issue 15).
    var ladder: LadderTag?
    var provider: String?
    var isStill = false

    init(_ id: String, delays: [Int], section: String = "spiders", query: String? = nil, decoded: Int? = nil) {
        self.id = id
        self.delays = delays
        self.section = section
        self.query = query
        self.decoded = decoded ?? delays.count
    }

    func delay(_ index: Int) -> Int { delays[index] }
    func hasFrame(_ index: Int) -> Bool { index < delays.count }
    func frameReady(_ index: Int) -> Bool? {
        if index < decoded { return true }
        return decoded >= delays.count ? false : nil
    }
}

/// GIFs handed over in order, with the lines before each; ended when closed.
final class FakeFeed: RoundFeed {
    var ready: [(lines: [[UInt8]], gif: FakeGIF, at: Int)] = []
    var linesAtTheEnd: [[UInt8]] = []
    var closed = false

    init(_ gifs: [FakeGIF] = [], closed: Bool = true) {
        ready = gifs.map { ([], $0, 0) }
        self.closed = closed
    }

    func nextGIF(lines: ([[UInt8]]) -> Void) -> (gif: FakeGIF, availableAt: Int)? {
        guard !ready.isEmpty else { return nil }
        let next = ready.removeFirst()
        if !next.lines.isEmpty { lines(next.lines) }
        return (next.gif, next.at)
    }

    var isFinished: Bool { closed && ready.isEmpty }

    func linesBeforeNextGIF(lines: ([[UInt8]]) -> Void) {
        if !linesAtTheEnd.isEmpty { lines(linesAtTheEnd) }
    }
}

/// What a machine handed out, in order.
final class Recorder {
    var outputs: [RoundOutput<FakeGIF>] = []
}

/// A machine over `feed` and everything it handed out.
final class Round {
    let feed: FakeFeed
    let machine: RoundMachine<FakeFeed>
    private let recorder = Recorder()

    /// A virtual clock, held throughout, unless `configure` says otherwise.
    init(_ feed: FakeFeed, _ configure: (inout PlayerConfiguration) -> Void = { _ in }) {
        var configuration = PlayerConfiguration()
        configuration.renderer = .none
        configuration.virtualClock = true
        configuration.hold = .always
        configure(&configuration)
        self.feed = feed
        let recorder = recorder
        machine = RoundMachine(configuration: configuration, feed: feed) { recorder.outputs.append($0) }
    }

    var outputs: [RoundOutput<FakeGIF>] { recorder.outputs }

    var events: [RoundEvent] {
        outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    /// The frames drawn, as "id:frame".
    var draws: [String] {
        outputs.compactMap { if case .draw(let gif, let frame) = $0 { "\(gif.id):\(frame)" } else { nil } }
    }

    /// Moves virtual time from `time` from one due moment to the next, as the
    /// player does, until the round ends, nothing more is due, or `until`.
    @discardableResult
    func play(from time: Int = 0, until limit: Int = .max) -> (EndReason, Int)? {
        var time = time
        while time <= limit {
            if let end = machine.advance(to: time) { return end }
            guard let next = machine.nextDue(after: time), next <= limit else { return nil }
            time = next
        }
        return nil
    }
}

func shown(_ id: String, start: Int, end: Int, exposed: Int, frames: Int, completed: Bool,
           section: String = "spiders", query: String? = nil) -> RoundEvent {
    .shown(RoundEvent.Shown(id: id, section: section, query: query, startMs: start, endMs: end, exposedMs: exposed,
                            frames: frames, completed: completed))
}

@Suite struct RoundMachineTests {
    @Test func pausedWithNothingLeftTheRoundIsOver() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [100])])) {
            $0.hold = .script("holds")
            $0.onRelease = .pause
        }
        round.machine.start()
        round.machine.setHeld(true, at: 0)
        round.play(until: 50)
        round.machine.setHeld(false, at: 50)
        #expect(!round.machine.isOverWhilePaused)
        round.machine.setHeld(true, at: 60)
        #expect(round.play(from: 60)?.0 == .eof)
        #expect(round.machine.endWhenIdle == .released)
    }

    @Test func aQuitWhileHeldCountsTheExposureUpToThatMoment() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [100, 100, 100])])) { $0.hold = .script("holds") }
        round.machine.start()
        round.machine.setHeld(true, at: 0)
        round.play(until: 100)
        let reason = round.machine.press(.quit, at: 170)
        #expect(reason == .quit)
        #expect(round.machine.finish(.quit, at: 170) == .quit)
        #expect(round.events == [
            shown("A", start: 0, end: 170, exposed: 170, frames: 2, completed: false),
            .hold(downMs: 0, upMs: 170),
            .sessionEnd(atMs: 170, reason: .quit),
        ])
        #expect(round.machine.press(.interrupt, at: 0) == .interrupted)
    }

    @Test func aFrameStillDecodingOnARealClockIsAStallNotExposure() {
        let gif = FakeGIF("A", delays: [100, 100, 100], decoded: 1)
        let round = Round(FakeFeed([gif])) { $0.virtualClock = false }
        round.machine.start()
        #expect(round.machine.advance(to: 0) == nil)
        #expect(round.machine.advance(to: 100) == nil)
        #expect(round.machine.nextDue(after: 100) == 110)  // looks again soon
        #expect(round.machine.advance(to: 130) == nil)
        #expect(round.outputs.contains { if case .status(let status) = $0 { status.loading } else { false } })
        gif.decoded = 3
        #expect(round.machine.advance(to: 160) == nil)
        #expect(round.machine.advance(to: 260) == nil)
        let end = round.machine.advance(to: 360)
        #expect(end?.0 == .eof && end?.1 == 360)
        _ = round.machine.finish(.eof, at: 360)
        #expect(round.events == [
            .stall(startMs: 100, endMs: 160),
            shown("A", start: 0, end: 360, exposed: 300, frames: 3, completed: true),
            .hold(downMs: 0, upMs: 360),
            .sessionEnd(atMs: 360, reason: .eof),
        ])
    }

    /// Issue 29 #9: a second into a hold the timer read "0s": on a real
    /// clock nothing woke the player before the frame on screen ended (3 s
    /// here), so the status line was not drawn again. It wakes each second.
    @Test func issue29_9_aRealClockWakesEachSecondOfExposureSoTheTimerMoves() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [3000])])) { $0.virtualClock = false }
        round.machine.start()
        #expect(round.machine.advance(to: 0) == nil)
        #expect(round.machine.nextDue(after: 0) == 1000)
        #expect(round.machine.advance(to: 1000) == nil)
        #expect(round.machine.nextDue(after: 1000) == 2000)
        let statuses = round.outputs.compactMap { if case .status(let status) = $0 { status.text } else { nil } }
        #expect(statuses.last == "exposure 1s · 1 GIF · spiders", "\(statuses)")
        // A virtual clock keeps to the frames: its events never depend on the status line.
        let virtual = Round(FakeFeed([FakeGIF("A", delays: [3000])]))
        virtual.machine.start()
        _ = virtual.machine.advance(to: 0)
        #expect(virtual.machine.nextDue(after: 0) == 3000)
    }

    /// Issue 29 #8: held, the buffer empty and the input open, the status
    /// line says more GIFs are loading.
    @Test func issue29_8_heldWithTheBufferEmptyAndMoreComingTheStatusSaysLoadingMore() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [500])], closed: false)) { $0.virtualClock = false }
        round.machine.start()
        #expect(round.machine.advance(to: 0) == nil)
        #expect(round.machine.advance(to: 800) == nil)
        let statuses = round.outputs.compactMap { if case .status(let status) = $0 { status.text } else { nil } }
        #expect(statuses.last == "exposure 0s · 1 GIF · loading more…", "\(statuses)")
    }

    /// Issue 16 #1: a GIF was counted twice from its end until the next
    /// began, so the last status line said "8 GIFs" after 7.
    @Test func theStatusLineCountsEachGIFOnceUpToTheEnd() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [1500]), FakeGIF("B", delays: [700])]))
        round.machine.start()
        let end = round.play()
        _ = round.machine.finish(end?.0 ?? .eof, at: end?.1 ?? 0)
        let statuses = round.outputs.compactMap { if case .status(let status) = $0 { status } else { nil } }
        #expect(statuses.map(\.gifsSeen).max() == 2, "\(statuses.map(\.text))")
        #expect(statuses.last?.text == "exposure 2s · 2 GIFs", "\(statuses.map(\.text))")
        #expect(round.machine.gifsSeen == 2)
        #expect(round.machine.exposedMs == 2200)
    }

    /// Issue 16 #1: each GIF cleared the whole screen, status line too, which
    /// stayed blank until its text next changed. A GIF clears only the picture.
    @Test func aGIFBeginningClearsThePictureNotTheStatusLine() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [100]), FakeGIF("B", delays: [100])]))
        round.machine.start()
        _ = round.play()
        let clears = round.outputs.compactMap { output -> String? in
            switch output {
            case .clear: "clear"
            case .clearPicture: "picture"
            default: nil
            }
        }
        #expect(clears == ["picture", "picture"])
    }

    /// Issue 16 #2: Ctrl-Z then `fg` ended the round (`--on-release end`).
    /// Suspending is not letting go: the hold ends at the stop, the round
    /// waits (the pause screen, no time counted), the next hold goes on where
    /// the GIF was, and the release after it ends the round.
    @Test func aSuspendEndsTheHoldNotTheRoundAndTheNextHoldGoesOnWhereItWas() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [100, 100, 100])])) {
            $0.hold = .mouse
            $0.virtualClock = false
        }
        round.machine.start()
        #expect(round.machine.setHeld(true, at: 0) == nil)
        #expect(round.machine.advance(to: 150) == nil)
        #expect(round.machine.suspend(at: 150) == nil)
        #expect(!round.machine.isHeld)
        #expect(round.outputs.contains { if case .paused = $0 { true } else { false } })
        // Stopped: nothing is due, no time is counted, nothing ends.
        #expect(round.machine.nextDue(after: 150) == nil)
        #expect(round.machine.advance(to: 2000) == nil)
        #expect(!round.machine.isOverWhilePaused)
        // `fg` draws the screen anew: the pause screen again, not the picture.
        let drawsBefore = round.draws.count
        let pausedBefore = round.outputs.filter { if case .paused = $0 { true } else { false } }.count
        round.machine.relayout(refitPlaying: nil, refitWaiting: { _ in nil })
        #expect(round.draws.count == drawsBefore)
        #expect(round.outputs.filter { if case .paused = $0 { true } else { false } }.count == pausedBefore + 1)
        // The next hold goes on where the GIF was: 50 ms left of frame 1.
        #expect(round.machine.setHeld(true, at: 2000) == nil)
        #expect(round.draws.last == "A:1")
        #expect(round.machine.advance(to: 2100) == nil)
        #expect(round.draws.last == "A:2")
        // Letting go after it ends the round, as --on-release end says.
        #expect(round.machine.setHeld(false, at: 2100) == .released)
        _ = round.machine.finish(.released, at: 2100)
        #expect(round.events == [
            .hold(downMs: 0, upMs: 150),
            shown("A", start: 0, end: 2100, exposed: 250, frames: 3, completed: false),
            .hold(downMs: 2000, upMs: 2100),
            .sessionEnd(atMs: 2100, reason: .released),
        ])
    }

    @Test func aSuspendWithoutAHoldChangesNothing() {
        let round = Round(FakeFeed([FakeGIF("A", delays: [100])])) { $0.hold = .mouse }
        round.machine.start()
        #expect(round.machine.suspend(at: 50) == nil)
        #expect(round.events.isEmpty)
        #expect(!round.outputs.contains { if case .paused = $0 { true } else { false } })
    }
}
