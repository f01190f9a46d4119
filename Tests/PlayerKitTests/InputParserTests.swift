import Testing
@testable import PlayerKit

@Suite struct InputParserTests {
    @Test func readsAColourReadBackTermcapRepliesAndTheWindowsPixels() {
        var parser = InputParser()
        let replies = "\u{1B}P1$r0;38:2::1:2:3m\u{1B}\\" + "\u{1B}P0$r\u{1B}\\"  // DECRQSS: held, then invalid
            + "\u{1B}P1+r524742=382F38\u{1B}\\" + "\u{1B}P0+r5463\u{1B}\\"  // XTGETTCAP: RGB=8/8, Tc unknown
            + "\u{1B}[4;475;800t" + "\u{1B}[6;19;8t"  // CSI 14 t, CSI 16 t
        #expect(parser.feed(Array(replies.utf8)) == [
            .statusString("0;38:2::1:2:3m"), .statusString(nil),
            .termcap(name: "RGB", value: "8/8"), .termcap(name: "Tc", value: nil),
            .windowPixels(width: 800, height: 475), .cellPixels(width: 8, height: 19),
        ])
    }

    @Test func readsSGRMousePressAndRelease() {
        var parser = InputParser()
        let result1 = parser.feed(Array("\u{1B}[<0;12;5M\u{1B}[<0;12;5m".utf8))
        #expect(result1 == [
            .mouse(button: 0, x: 12, y: 5, pressed: true),
            .mouse(button: 0, x: 12, y: 5, pressed: false),
        ])
    }

    @Test func ignoresWheelAndMotionReports() {
        var parser = InputParser()
        let result2 = parser.feed(Array("\u{1B}[<64;1;1M\u{1B}[<32;3;4M".utf8))
        #expect(result2 == [])
    }

    @Test func readsKittyKeyEventsWithTheirKind() {
        var parser = InputParser()
        let result3 = parser.feed(Array("\u{1B}[32u\u{1B}[32;1:2u\u{1B}[32;1:3u".utf8))
        #expect(result3 == [
            .key(code: 32, kind: .press), .key(code: 32, kind: .repeat), .key(code: 32, kind: .release),
        ])
    }

    @Test func readsCtrlCUnderTheKittyProtocolAsAKey() {
        var parser = InputParser()
        let result4 = parser.feed(Array("\u{1B}[99;5u".utf8))
        #expect(result4 == [.key(code: 3, kind: .press)])
    }

    @Test func readsCtrlZUnderTheKittyProtocolAsAKey() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[122;5u".utf8)) == [.key(code: 26, kind: .press)])
        #expect(parser.feed(Array("\u{1B}[122u".utf8)) == [.key(code: 122, kind: .press)])
    }

    @Test func waitsForTheRestOfASplitSequence() {
        var parser = InputParser()
        let result5 = parser.feed(Array("\u{1B}[<0;1".utf8))
        #expect(result5 == [])
        #expect(parser.hasPending)
        let result6 = parser.feed(Array(";2M".utf8))
        #expect(result6 == [.mouse(button: 0, x: 1, y: 2, pressed: true)])
    }

    @Test func tellsALoneEscapeOnlyAfterAPause() {
        var parser = InputParser()
        let result7 = parser.feed([0x1B])
        #expect(result7 == [])
        let result8 = parser.flushPendingEscape()
        #expect(result8 == [.key(code: 27, kind: .press)])
        let result9 = parser.flushPendingEscape()
        #expect(result9 == [])
    }

    @Test func readsTheCapabilityReplies() {
        var parser = InputParser()
        let result10 = parser.feed(Array("\u{1B}[?1u\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c".utf8))
        #expect(result10 == [
            .kittyKeyboard(flags: 1), .kittyGraphics(id: 31, ok: true), .deviceAttributes([62, 4, 22]),
        ])
    }

    @Test func readsTheProbeReplies() {
        var parser = InputParser()
        let replies = "\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?1;0;256S\u{1B}[?2;0;1000;800S\u{1B}[6;20;10t"
            + "\u{1B}_Gi=32;ENOENT:file not found\u{1B}\\\u{1B}P1$r0m\u{1B}\\"
        #expect(parser.feed(Array(replies.utf8)) == [
            .terminalName("kitty(0.26.5)"), .graphicsAttribute(item: 1, status: 0, values: [256]),
            .graphicsAttribute(item: 2, status: 0, values: [1000, 800]), .cellPixels(width: 10, height: 20),
            .kittyGraphics(id: 32, ok: false), .statusString("0m"),  // DECRQSS: the probe's colour read back
        ])
    }

    @Test func readsFocusAndPlainKeys() {
        var parser = InputParser()
        let result11 = parser.feed(Array("\u{1B}[O \u{1B}[Iq".utf8))
        #expect(result11 == [
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
        let changed1 = tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: true), at: 0)
        #expect(changed1)
        #expect(tracker.isHeld)
        let changed2 = tracker.handle(.mouse(button: 2, x: 1, y: 1, pressed: false), at: 5)
        #expect(!changed2)
        let changed3 = tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: false), at: 10)
        #expect(changed3)
        #expect(!tracker.isHeld)
    }

    @Test func ignoresKeysInMouseMode() {
        var tracker = HoldTracker(source: .mouse)
        let changed4 = tracker.handle(.key(code: 32, kind: .press), at: 0)
        #expect(!changed4)
    }

    @Test func usesExactKittyReleases() {
        var tracker = HoldTracker(source: .keys)
        tracker.exactKeys = true
        let changed5 = tracker.handle(.key(code: 32, kind: .press), at: 0)
        #expect(changed5)
        let changed6 = tracker.tick(at: 5000)
        #expect(!changed6)  // no inference with exact releases
        let changed7 = tracker.handle(.key(code: 32, kind: .release), at: 5000)
        #expect(changed7)
    }

    @Test func infersAReleaseWhenAutorepeatStops() {
        var tracker = HoldTracker(source: .keys)
        let changed8 = tracker.handle(.key(code: 32, kind: .press), at: 0)
        #expect(changed8)
        #expect(tracker.releaseDeadline == 1000)
        // Autorepeat starts after 500 ms, then every 30 ms.
        for t in stride(from: 500, through: 800, by: 30) { _ = tracker.handle(.key(code: 32, kind: .press), at: t) }
        #expect(tracker.isHeld)
        #expect(tracker.releaseDeadline == 800 + 100)  // max(2.5 × 30, 100)
        let changed9 = tracker.tick(at: 899)
        #expect(!changed9)
        let changed10 = tracker.tick(at: 900)
        #expect(changed10)
        #expect(!tracker.isHeld)
    }

    @Test func repeatsReadTogetherDoNotShortenTheReleaseWindow() {
        var tracker = HoldTracker(source: .keys)
        _ = tracker.handle(.key(code: 32, kind: .press), at: 0)
        // Repeats every 110 ms; two of them read in one go (the player was busy).
        for t in [500, 610, 720, 721, 831] { _ = tracker.handle(.key(code: 32, kind: .press), at: t) }
        #expect(tracker.releaseDeadline == 831 + 275)  // 2.5 × 110, not the 100 ms floor
        let changed = tracker.tick(at: 1000)
        #expect(!changed)
        #expect(tracker.isHeld)
    }

    @Test func aTapWithoutRepeatsEndsAfterTheFirstRepeatWindow() {
        var tracker = HoldTracker(source: .auto)
        _ = tracker.handle(.key(code: 32, kind: .press), at: 100)
        let changed11 = tracker.tick(at: 1099)
        #expect(!changed11)
        let changed12 = tracker.tick(at: 1100)
        #expect(changed12)
    }

    @Test func losingFocusIsARelease() {
        var tracker = HoldTracker(source: .auto)
        _ = tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: true), at: 0)
        let changed13 = tracker.handle(.focus(false), at: 50)
        #expect(changed13)
        #expect(!tracker.isHeld)
    }

    @Test func parsesHoldSources() {
        #expect(HoldSource(argument: "script:/tmp/x") == .script("/tmp/x"))
        #expect(HoldSource(argument: "script:") == nil)
        #expect(HoldSource(argument: "feet") == nil)
    }
}
