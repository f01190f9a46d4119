// The frames of a GIF decoded as it plays: a GIF starts with its first half
// second decoded, the rest comes a little ahead of the frame asked for, and a
// GIF nobody plays is never decoded further.

import Foundation
import Testing
import GIFEngine
import SposureKit
import TestSupport
@testable import PlayerKit

@Suite struct PreparedGIFTests {
    let layout = ScreenLayout(columns: 80, rows: 23, cell: .halfBlock, background: .black)

    /// A 30-frame GIF of 40 ms frames (25 fps), written in `folder`.
    func gif(in folder: URL, frames: Int = 30) throws -> String {
        try PlayGIF.write(PlayGIF.animated(delays: Array(repeating: 4, count: frames)), "g.gif", in: folder)
    }

    func record(_ path: String) -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "image")
        record.set("path", path)
        return record
    }

    /// The frames of `gif` decoded once the decoder has reached `count` (or
    /// 10 s passed) and 0.2 s more, to show where it stops.
    func decodedOnceSettled(_ gif: PreparedGIF, reaching count: Int) -> Int {
        let deadline = Date().addingTimeInterval(10)
        while gif.frames.decoded < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.2)
        return gif.frames.decoded
    }

    /// Runs the rest of `decoding` on a thread, as the preloader's finisher does.
    func finish(_ decoding: GIFDecoding) {
        let thread = Thread { decoding.finishOnDemand() }
        thread.start()
    }

    @Test func startsWithTheFirstHalfSecondAndDecodesTheRestOnlyWhenAskedFor() throws {
        try withTemporaryDirectory { folder in
            let path = try gif(in: folder)
            let (prepared, rest) = try PreparedGIF.begin(record: record(path), path: path, layout: layout, firstMs: 500)
            // 13 frames of 40 ms are the first to reach 500 ms.
            #expect(prepared.frames.decoded == 13)
            #expect(!prepared.frames.isEnded)
            let decoding = try #require(rest)
            finish(decoding)
            // Nobody asked for more: the finisher waits instead of decoding on.
            Thread.sleep(forTimeInterval: 0.2)
            #expect(prepared.frames.decoded == 13)
            // Asking for frame 15 gets it, and the look-ahead (14 frames) after it, no more.
            #expect(prepared.hasFrame(15))
            #expect(decodedOnceSettled(prepared, reaching: 15 + 14) == 29)
            #expect(prepared.hasFrame(29))
            #expect(!prepared.hasFrame(30), "30 frames: the 31st does not exist")
            #expect(prepared.frames.isEnded)
            #expect(prepared.frames.truncation == nil)
            #expect(prepared.delay(29) == 40)
            #expect(prepared.picture(29).width == 46 && prepared.picture(29).height == 46)
        }
    }

    @Test func aLongFirstFrameStillGetsSeveralFramesDecodedAhead() throws {
        try withTemporaryDirectory { folder in
            // A title frame of a second, then 20 ms frames: the first 0.3 s is one frame.
            let path = try PlayGIF.write(PlayGIF.animated(delays: [100] + Array(repeating: 2, count: 20)), "title.gif", in: folder)
            let (prepared, rest) = try PreparedGIF.begin(record: record(path), path: path, layout: layout, firstMs: 300)
            #expect(prepared.frames.decoded == 1)
            finish(try #require(rest))
            // Showing frame 0 asks for the look-ahead at once (at least 4 frames),
            // not only when frame 1 is already due.
            #expect(prepared.hasFrame(0))
            #expect(decodedOnceSettled(prepared, reaching: 4) == 4)
        }
    }

    @Test func aGIFFittedAgainMidPlayStartsThroughTheFrameOnScreenAndItsLookAhead() throws {
        try withTemporaryDirectory { folder in
            let path = try gif(in: folder)
            let (prepared, rest) = try PreparedGIF.begin(record: record(path), path: path, layout: layout, firstMs: 300, through: 5)
            // Frames 0–5, then those of 0.3 s from frame 5: 5–12 (8 × 40 ms).
            #expect(prepared.frames.decoded == 13)
            finish(try #require(rest))
            Thread.sleep(forTimeInterval: 0.2)
            #expect(prepared.frames.decoded == 13, "nothing more until asked for")
            // Frame 12 asks for the look-ahead after it: the frames of 0.3 s
            // and one (9), not all those decoded and one (14).
            #expect(prepared.hasFrame(12))
            #expect(decodedOnceSettled(prepared, reaching: 12 + 9) == 21)
            #expect(prepared.hasFrame(29))
            // The same pictures as the GIF decoded whole.
            let whole = try PreparedGIF.whole(record: record(path), path: path, layout: layout)
            for index in [0, 5, 12, 21, 29] {
                #expect(prepared.picture(index).rgb == whole.picture(index).rgb, "frame \(index)")
            }
        }
    }

    @Test func aDroppedGIFStopsItsDecoding() throws {
        try withTemporaryDirectory { folder in
            let path = try gif(in: folder)
            let (prepared, rest) = try PreparedGIF.begin(record: record(path), path: path, layout: layout, firstMs: 100)
            let decoding = try #require(rest)
            prepared.frames.cancel()
            #expect(!decoding.store.waitForDemand(), "a cancelled GIF wants no frame")
            #expect(!prepared.hasFrame(10), "nor does it wait for one")
        }
    }

    @Test func aFileWithNoFrameThrowsAtTheStart() throws {
        try withTemporaryDirectory { folder in
            let whole = PlayGIF.animated(delays: [4, 4])
            let path = try PlayGIF.write(Array(whole.prefix(30)), "cut.gif", in: folder)
            #expect(throws: GIFError.self) {
                _ = try PreparedGIF.begin(record: record(path), path: path, layout: layout, firstMs: 500)
            }
        }
    }
}

@Suite struct ScreenRedrawTests {
    /// A GIF of two frames, fitted to an 80×24 screen (23 picture rows).
    func twoFrameGIF(in folder: URL) throws -> PreparedGIF {
        let layout = ScreenLayout(columns: 80, rows: 23, cell: .halfBlock, background: .black)
        return try PreparedGIF.whole(PlayGIF.animated(delays: [4, 4]), in: folder, layout: layout)
    }

    @Test func aMessageFromElsewhereOnTheTerminalMakesTheNextFrameWhole() throws {
        try withTemporaryDirectory { folder in
            let gif = try twoFrameGIF(in: folder)
            let terminal = try Terminal(path: folder.appendingPathComponent("tty").path)
            terminal.enter(mouse: false)
            let screen = Screen(terminal: terminal, renderer: .truecolor, columns: 80, rows: 24)
            var others = 0
            screen.otherWrites = { others }
            screen.draw(gif, frame: 0)
            screen.flush()
            let whole = screen.bytesWritten
            #expect(whole > 0)
            screen.draw(gif, frame: 0)
            screen.flush()
            #expect(screen.bytesWritten == whole, "the same frame again: nothing to write")
            // A warning on stderr (the same terminal) covered cells and reset the colours.
            others += 1
            screen.draw(gif, frame: 0)
            screen.flush()
            #expect(screen.bytesWritten == 2 * whole, "the frame is drawn whole again")
        }
    }

    @Test func theClearBeforeAFrameAndTheStatusLineAfterItGoInItsSynchronizedOutput() throws {
        try withTemporaryDirectory { folder in
            let gif = try twoFrameGIF(in: folder)
            let tty = folder.appendingPathComponent("tty").path
            let terminal = try Terminal(path: tty)
            terminal.enter(mouse: false)
            let setup = try String(contentsOfFile: tty, encoding: .utf8)
            let screen = Screen(terminal: terminal, renderer: .truecolor, columns: 80, rows: 24)
            screen.clear()
            screen.draw(gif, frame: 0)
            screen.status("⏱ 0s · 1 GIF")
            screen.flush()
            let text = String(try String(contentsOfFile: tty, encoding: .utf8).dropFirst(setup.count))
            #expect(text.hasPrefix("\u{1B}[?2026h\u{1B}[0m\u{1B}[2J"), "\(text.prefix(40).debugDescription)")
            #expect(text.hasSuffix("⏱ 0s · 1 GIF\u{1B}[0m\u{1B}[K\u{1B}[?2026l"), "\(text.suffix(60).debugDescription)")
            #expect(text.components(separatedBy: "\u{1B}[?2026h").count == 2, "one synchronized update")
            #expect(text.components(separatedBy: "\u{1B}[?2026l").count == 2, "one synchronized update")
            // Once the screen is given back (Ctrl-Z), frames are not written.
            terminal.leave()
            let left = try String(contentsOfFile: tty, encoding: .utf8).count
            screen.draw(gif, frame: 1)
            screen.flush()
            #expect(try String(contentsOfFile: tty, encoding: .utf8).count == left, "nothing drawn after leave()")
        }
    }
}

extension PreparedGIF {
    /// `bytes` written as g.gif in `folder`, an image record of it, decoded whole for `layout`.
    static func whole(_ bytes: [UInt8], in folder: URL, layout: ScreenLayout) throws -> PreparedGIF {
        let record = JSONRecord()
        record.set("kind", "image")
        return try whole(record: record, path: try PlayGIF.write(bytes, "g.gif", in: folder), layout: layout)
    }

    /// Every frame decoded and fitted now, with nothing left to a thread:
    /// the reference the decoding as it plays must equal.
    static func whole(record: JSONRecord, path: String, layout: ScreenLayout) throws -> PreparedGIF {
        let (gif, rest) = try begin(record: record, path: path, layout: layout, firstMs: Int.max)
        if let rest { while rest.step() {} }
        #expect(gif.frames.isEnded)
        return gif
    }
}
