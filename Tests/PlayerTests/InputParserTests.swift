import Testing
@testable import PlayerKit

@Suite struct InputParserTests {
    @Test func readsSGRMousePressAndRelease() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[<0;12;5M\u{1B}[<0;12;5m".utf8)) == [
            .mouse(button: 0, x: 12, y: 5, pressed: true),
            .mouse(button: 0, x: 12, y: 5, pressed: false),
        ])
    }

    @Test func ignoresWheelAndMotionReports() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[<64;1;1M\u{1B}[<32;3;4M".utf8)) == [])
    }

    @Test func readsKittyKeyEventsWithTheirKind() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[32u\u{1B}[32;1:2u\u{1B}[32;1:3u".utf8)) == [
            .key(code: 32, kind: .press), .key(code: 32, kind: .repeat), .key(code: 32, kind: .release),
        ])
    }

    @Test func readsCtrlCUnderTheKittyProtocolAsAKey() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[99;5u".utf8)) == [.key(code: 3, kind: .press)])
    }

    @Test func waitsForTheRestOfASplitSequence() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[<0;1".utf8)) == [])
        #expect(parser.hasPending)
        #expect(parser.feed(Array(";2M".utf8)) == [.mouse(button: 0, x: 1, y: 2, pressed: true)])
    }

    @Test func tellsALoneEscapeOnlyAfterAPause() {
        var parser = InputParser()
        #expect(parser.feed([0x1B]) == [])
        #expect(parser.flushPendingEscape() == [.key(code: 27, kind: .press)])
        #expect(parser.flushPendingEscape() == [])
    }

    @Test func readsTheCapabilityReplies() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[?1u\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c".utf8)) == [
            .kittyKeyboard(flags: 1), .kittyGraphics(ok: true), .deviceAttributes([62, 4, 22]),
        ])
    }

    @Test func readsFocusAndPlainKeys() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[O \u{1B}[Iq".utf8)) == [
            .focus(false), .key(code: 32, kind: .press), .focus(true), .key(code: 113, kind: .press),
        ])
    }

    @Test func neverGrowsWithoutBoundOnGarbage() {
        var parser = InputParser()
        _ = parser.feed([0x1B, UInt8(ascii: "_")] + Array(repeating: UInt8(ascii: "x"), count: 10_000))
        #expect(!parser.hasPending)
    }
}

@Suite struct HoldTrackerTests {
    @Test func followsTheLeftMouseButton() {
        var tracker = HoldTracker(source: .mouse)
        #expect(tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: true), at: 0))
        #expect(tracker.isHeld)
        #expect(!tracker.handle(.mouse(button: 2, x: 1, y: 1, pressed: false), at: 5))
        #expect(tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: false), at: 10))
        #expect(!tracker.isHeld)
    }

    @Test func ignoresKeysInMouseMode() {
        var tracker = HoldTracker(source: .mouse)
        #expect(!tracker.handle(.key(code: 32, kind: .press), at: 0))
    }

    @Test func usesExactKittyReleases() {
        var tracker = HoldTracker(source: .keys)
        tracker.exactKeys = true
        #expect(tracker.handle(.key(code: 32, kind: .press), at: 0))
        #expect(!tracker.tick(at: 5000))  // no inference with exact releases
        #expect(tracker.handle(.key(code: 32, kind: .release), at: 5000))
    }

    @Test func infersAReleaseWhenAutorepeatStops() {
        var tracker = HoldTracker(source: .keys)
        #expect(tracker.handle(.key(code: 32, kind: .press), at: 0))
        #expect(tracker.releaseDeadline == 1000)
        // Autorepeat starts after 500 ms, then every 30 ms.
        for t in stride(from: 500, through: 800, by: 30) { _ = tracker.handle(.key(code: 32, kind: .press), at: t) }
        #expect(tracker.isHeld)
        #expect(tracker.releaseDeadline == 800 + 100)  // max(2.5 × 30, 100)
        #expect(!tracker.tick(at: 899))
        #expect(tracker.tick(at: 900))
        #expect(!tracker.isHeld)
    }

    @Test func aTapWithoutRepeatsEndsAfterTheFirstRepeatWindow() {
        var tracker = HoldTracker(source: .auto)
        _ = tracker.handle(.key(code: 32, kind: .press), at: 100)
        #expect(!tracker.tick(at: 1099))
        #expect(tracker.tick(at: 1100))
    }

    @Test func losingFocusIsARelease() {
        var tracker = HoldTracker(source: .auto)
        _ = tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: true), at: 0)
        #expect(tracker.handle(.focus(false), at: 50))
        #expect(!tracker.isHeld)
    }

    @Test func parsesHoldSources() {
        #expect(HoldSource(argument: "script:/tmp/x") == .script("/tmp/x"))
        #expect(HoldSource(argument: "script:") == nil)
        #expect(HoldSource(argument: "feet") == nil)
    }
}
