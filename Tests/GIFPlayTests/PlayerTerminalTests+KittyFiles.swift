// kitty's frame files (`t=t`) in a pty that answers the probe as a kitty on
// this machine but never reads the files, as a stalled terminal does (issue
// 28 item 11: 100 files were left in /tmp after a SIGTERM).

import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// kitty graphics, and our file read: the probe's two queries (ids 31 and 32) answered OK.
private let kittyGraphicsAnswers = [("\(esc)_Gi=31,", "\(esc)_Gi=31;OK\(esc)\\"), ("\(esc)_Gi=32,", "\(esc)_Gi=32;OK\(esc)\\")]

extension PlayerTerminalTests {
    /// The frame files of gif-play's in `folder`.
    func kittyFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains("tty-graphics-protocol") }
    }

    /// Plays a 20-frame GIF as kitty frames through files nobody reads,
    /// then sends `signal`: at most four files were there at any time while
    /// it played (the rest went over the pty), and none is left after.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func kittyFrameFilesAreBoundedAndGoneAfterASignal(signal: Int32, status: Int32) throws {
        try withTemporaryDirectory { folder in
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let session = try start(arguments: ["--hold", "mouse"], answers: kittyGraphicsAnswers + [da1Answer],
                                    frames: 20, delay: 2, count: 1, renderer: "kitty",
                                    environment: ["TMPDIR": temporary.path], in: folder)
            defer { session.pty.close() }
            session.pty.type("\(esc)[<0;5;5M")
            // Each frame is sent the first time it is shown (the root frame,
            // then `a=f`); files while they go. Eight frames: past the four files.
            var most = 0
            let sent = session.pty.waitFor { out in
                most = max(most, kittyFiles(in: temporary).count)
                return Bytes.count("\(esc)_Ga=f,", in: out) >= 8
            }
            #expect(sent, "eight frames: \(Bytes.excerpt(session.pty.bytes))")
            most = max(most, kittyFiles(in: temporary).count)
            #expect(Bytes.contains(",t=t;", in: session.pty.bytes), "frames went through files")
            #expect(most >= 1 && most <= 4, "files in flight at most: \(most)")
            #expect(Bytes.count("\(esc)_Ga=f,", in: session.pty.bytes) > Bytes.count(",t=t;", in: session.pty.bytes),
                    "past four files unread, frames go over the pty")
            session.process.send(signal: signal)
            let result = session.finish()
            #expect(result.exitCode == status, "\(result)")
            #expect(kittyFiles(in: temporary).isEmpty, "left behind: \(kittyFiles(in: temporary))")
        }
    }

    /// 160×160 pixels of noise, 20 frames: sent over the pty (past the four
    /// files) each is about 8 KB, enough to fill a pty nobody reads.
    func noiseGIF() -> [UInt8] {
        var gif = GIFBuilder(width: 160, height: 160, colors: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]], colorResolution: 1)
        gif.loop(0)
        var seed: UInt32 = 7
        for _ in 0..<20 {
            gif.control(delay: 2, disposal: 1)
            let pixels = (0..<(160 * 160)).map { _ -> UInt8 in
                seed = seed &* 1_103_515_245 &+ 12345
                return UInt8(seed >> 30)
            }
            gif.image(width: 160, height: 160, pixels: pixels)
        }
        gif.trailer()
        return gif.bytes
    }

    /// A held round drawing with kitty files into `folder/tmp`, four files in
    /// flight, and then a terminal that stops reading.
    func stalledRound(in folder: URL) throws -> (session: Session, temporary: URL) {
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let session = try start(arguments: ["--hold", "mouse"], answers: kittyGraphicsAnswers + [da1Answer], count: 1,
                                gif: noiseGIF(), renderer: "kitty", environment: ["TMPDIR": temporary.path], in: folder)
        session.pty.type("\(esc)[<0;5;5M")
        #expect(session.pty.waitFor { _ in kittyFiles(in: temporary).count == 4 }, "four files in flight")
        session.pty.stall(true)
        return (session, temporary)
    }

    /// Polls (up to 20 s, by count: no wall clock) until `temporary` holds no kitty file.
    func waitUntilNoKittyFiles(in temporary: URL) {
        for _ in 0..<1000 where !kittyFiles(in: temporary).isEmpty { usleep(20_000) }
    }

    /// The case: the terminal stalls (reads nothing, so the player's
    /// writes block with a frame half sent) and then SIGTERM comes. The
    /// player cannot finish its round while the write waits, so the files
    /// go at the signal itself; it exits once the terminal reads again.
    @Test func aStalledTerminalStillLosesTheFramesFilesAtTheSignal() throws {
        try withTemporaryDirectory { folder in
            let (session, temporary) = try stalledRound(in: folder)
            defer { session.pty.close() }
            // The player fills the pty and waits on it (a second is plenty).
            usleep(1_000_000)
            #expect(kittyFiles(in: temporary).count == 4, "none read")
            session.process.send(signal: SIGTERM)
            waitUntilNoKittyFiles(in: temporary)
            #expect(kittyFiles(in: temporary).isEmpty, "left behind while the terminal is stalled: \(kittyFiles(in: temporary))")
            session.pty.stall(false)
            let result = session.finish()
            #expect(result.exitCode == 143, "\(result)")
            #expect(kittyFiles(in: temporary).isEmpty)
        }
    }

    /// A second signal exits at once even while the terminal is stalled:
    /// the forced exit waited for the terminal's lock, which the player held
    /// in a write that waited for the terminal, so it hung until the
    /// terminal read again. The modes are given back.
    @Test func aSecondSignalExitsAtOnceWhileTheTerminalIsStalled() throws {
        try withTemporaryDirectory { folder in
            let (session, temporary) = try stalledRound(in: folder)
            defer { session.pty.close() }
            usleep(1_000_000)  // the player fills the pty and waits on it
            session.process.send(signal: SIGTERM)
            waitUntilNoKittyFiles(in: temporary)
            session.process.send(signal: SIGTERM)
            let result = session.process.wait(timeout: 60)
            #expect(result.exitCode == 143, "exited while the terminal is stalled: \(result)")
            #expect(kittyFiles(in: temporary).isEmpty)
            expectCookedModes(session.pty)
            session.pty.stall(false)
        }
    }
}
