// kitty's frame files (`t=t`) in a pty that answers the probe as a kitty on
// this machine but never reads the files, as a stalled terminal does (issue
// 28 item 11: 100 files were left in /tmp after a SIGTERM).

import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

private let esc = "\u{1B}"
private let da1Answer = ("\(esc)[c", "\(esc)[?62;22c")
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
            // The first loop sends 20 frames (the root frame and 19 `a=f`); files while they go.
            var most = 0
            let sent = session.pty.waitFor { out in
                most = max(most, kittyFiles(in: temporary).count)
                return Bytes.count("\(esc)_Ga=f,", in: out) >= 19
            }
            #expect(sent, "the first loop's frames: \(Bytes.excerpt(session.pty.bytes))")
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
}
