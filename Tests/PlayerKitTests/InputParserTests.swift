import Testing
@testable import PlayerKit

@Suite struct InputParserTests {
    /// Whole sequences read in one go: replies to the queries (DECRQSS held
    /// then invalid, XTGETTCAP RGB=8/8 and Tc unknown, CSI 14 t and 16 t),
    /// SGR mouse reports (wheel and motion ignored), kitty key events with
    /// their kind (Ctrl-C and Ctrl-Z under the kitty protocol as keys), focus
    /// and plain keys, the probe's replies.
    @Test(arguments: [
        ("\u{1B}P1$r0;38:2::1:2:3m\u{1B}\\\u{1B}P0$r\u{1B}\\\u{1B}P1+r524742=382F38\u{1B}\\\u{1B}P0+r5463\u{1B}\\"
            + "\u{1B}[4;475;800t\u{1B}[6;19;8t",
         [InputEvent.statusString("0;38:2::1:2:3m"), .statusString(nil), .termcap(name: "RGB", value: "8/8"),
          .termcap(name: "Tc", value: nil), .windowPixels(width: 800, height: 475), .cellPixels(width: 8, height: 19)]),
        ("\u{1B}[<0;12;5M\u{1B}[<0;12;5m",
         [.mouse(button: 0, x: 12, y: 5, pressed: true), .mouse(button: 0, x: 12, y: 5, pressed: false)]),
        ("\u{1B}[<64;1;1M\u{1B}[<32;3;4M", []),
        ("\u{1B}[32u\u{1B}[32;1:2u\u{1B}[32;1:3u",
         [.key(code: 32, kind: .press), .key(code: 32, kind: .repeat), .key(code: 32, kind: .release)]),
        ("\u{1B}[99;5u", [.key(code: 3, kind: .press)]),
        ("\u{1B}[122;5u\u{1B}[122u", [.key(code: 26, kind: .press), .key(code: 122, kind: .press)]),
        ("\u{1B}[?1u\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c",
         [.kittyKeyboard(flags: 1), .kittyGraphics(id: 31, ok: true), .deviceAttributes([62, 4, 22])]),
        ("\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?1;0;256S\u{1B}[?2;0;1000;800S\u{1B}[6;20;10t"
            + "\u{1B}_Gi=32;ENOENT:file not found\u{1B}\\\u{1B}P1$r0m\u{1B}\\",
         [.terminalName("kitty(0.26.5)"), .graphicsAttribute(item: 1, status: 0, values: [256]),
          .graphicsAttribute(item: 2, status: 0, values: [1000, 800]), .cellPixels(width: 10, height: 20),
          .kittyGraphics(id: 32, ok: false), .statusString("0m")]),
        ("\u{1B}[O \u{1B}[Iq", [.focus(false), .key(code: 32, kind: .press), .focus(true), .key(code: 113, kind: .press)]),
    ])
    func readsWholeSequences(input: String, events: [InputEvent]) {
        var parser = InputParser()
        #expect(parser.feed(Array(input.utf8)) == events)
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

    @Test func neverGrowsWithoutBoundOnGarbage() {
        var parser = InputParser()
        _ = parser.feed([0x1B, UInt8(ascii: "_")] + Array(repeating: UInt8(ascii: "x"), count: 10_000))
        #expect(!parser.hasPending)
    }
}

@Suite struct HoldTrackerTests {
    @Test func followsTheLeftMouseButton() {
        var tracker = HoldTracker(source: .mouse)
        #expect(tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: true), at: 0) == true)
        #expect(tracker.isHeld)
        #expect(tracker.handle(.mouse(button: 2, x: 1, y: 1, pressed: false), at: 5) == false)
        #expect(tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: false), at: 10) == true)
        #expect(!tracker.isHeld)
    }

    @Test func ignoresKeysInMouseMode() {
        var tracker = HoldTracker(source: .mouse)
        #expect(tracker.handle(.key(code: 32, kind: .press), at: 0) == false)
    }

    @Test func usesExactKittyReleases() {
        var tracker = HoldTracker(source: .keys)
        tracker.exactKeys = true
        #expect(tracker.handle(.key(code: 32, kind: .press), at: 0) == true)
        #expect(tracker.tick(at: 5000) == false)  // no inference with exact releases
        #expect(tracker.handle(.key(code: 32, kind: .release), at: 5000) == true)
    }

    @Test func infersAReleaseWhenAutorepeatStops() {
        var tracker = HoldTracker(source: .keys)
        #expect(tracker.handle(.key(code: 32, kind: .press), at: 0) == true)
        #expect(tracker.releaseDeadline == 1000)
        // Autorepeat starts after 500 ms, then every 30 ms.
        for t in stride(from: 500, through: 800, by: 30) { _ = tracker.handle(.key(code: 32, kind: .press), at: t) }
        #expect(tracker.isHeld)
        #expect(tracker.releaseDeadline == 800 + 100)  // max(2.5 × 30, 100)
        #expect(tracker.tick(at: 899) == false)
        #expect(tracker.tick(at: 900) == true)
        #expect(!tracker.isHeld)
    }

    @Test func repeatsReadTogetherDoNotShortenTheReleaseWindow() {
        var tracker = HoldTracker(source: .keys)
        _ = tracker.handle(.key(code: 32, kind: .press), at: 0)
        // Repeats every 110 ms; two of them read in one go (the player was busy).
        for t in [500, 610, 720, 721, 831] { _ = tracker.handle(.key(code: 32, kind: .press), at: t) }
        #expect(tracker.releaseDeadline == 831 + 275)  // 2.5 × 110, not the 100 ms floor
        #expect(tracker.tick(at: 1000) == false)
        #expect(tracker.isHeld)
    }

    @Test func aTapWithoutRepeatsEndsAfterTheFirstRepeatWindow() {
        var tracker = HoldTracker(source: .auto)
        _ = tracker.handle(.key(code: 32, kind: .press), at: 100)
        #expect(tracker.tick(at: 1099) == false)
        #expect(tracker.tick(at: 1100) == true)
    }

    @Test func losingFocusIsARelease() {
        var tracker = HoldTracker(source: .auto)
        _ = tracker.handle(.mouse(button: 0, x: 1, y: 1, pressed: true), at: 0)
        #expect(tracker.handle(.focus(false), at: 50) == true)
        #expect(!tracker.isHeld)
    }

    @Test func parsesHoldSources() {
        #expect(HoldSource(argument: "script:/tmp/x") == .script("/tmp/x"))
        #expect(HoldSource(argument: "script:") == nil)
        #expect(HoldSource(argument: "feet") == nil)
    }
}
