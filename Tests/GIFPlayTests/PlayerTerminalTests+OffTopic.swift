// The x key (issue 22) in a pty: it marks the GIF on screen off-topic, ends
// it at once and the next one plays, the hold going on; the hint line names
// it. Plain bytes and the kitty keyboard protocol alike.

import Foundation
import Testing
import TestSupport

extension PlayerTerminalTests {
    /// The events of a round where x ended g1 and g2 played until let go.
    func expectOffTopicRound(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        // A stall may come between: the next GIF may still be decoding when x comes at once.
        let kinds = lines.compactMap { jsonObject($0) }.map { "\($0["kind"] ?? ""):\($0["id"] ?? "")" }.filter { $0 != "stall:" }
        #expect(kinds == ["session:", "off_topic:g1", "shown:g1", "shown:g2", "hold:", "session:"], "\(lines)",
                sourceLocation: sourceLocation)
        #expect(lines.count > 2 && lines[1].hasPrefix(#"{"kind":"off_topic","id":"g1","title":"Spider-Man","t_ms":"#), "\(lines)",
                sourceLocation: sourceLocation)
        let mark = jsonObject(lines.count > 1 ? lines[1] : "")?["t_ms"] as? Int
        let first = jsonObject(lines.count > 2 ? lines[2] : "")
        #expect(first?["completed"] as? Bool == false && first?["end_ms"] as? Int == mark, "\(lines)", sourceLocation: sourceLocation)
        let next = lines.compactMap { jsonObject($0) }.first { $0["id"] as? String == "g2" }
        let stall = lines.compactMap { jsonObject($0) }.first { $0["kind"] as? String == "stall" }
        #expect(next?["start_ms"] as? Int == (stall?["end_ms"] as? Int ?? mark), "the next began at once, or when ready: \(lines)",
                sourceLocation: sourceLocation)
    }

    /// The next GIF's first frame is drawn (the top left of the picture
    /// at 80×24) after the one x ended left the screen: the next GIF may
    /// still be decoding when x comes at once (a debug build on a busy machine).
    func expectNextGIFDrawn(_ session: Session, sourceLocation: SourceLocation = #_sourceLocation) {
        let mark = session.pty.count
        #expect(session.pty.waitFor("\(esc)[1;18H", after: mark), "the next GIF: \(Bytes.excerpt(session.pty.bytes))",
                sourceLocation: sourceLocation)
    }

    /// Plain bytes: a held x repeats, and the next GIF is not marked by the
    /// repeats. The kitty keyboard protocol: x pressed, repeated and let go
    /// while SPACE is held is one mark.
    @Test(arguments: [false, true])
    func xEndsTheGIFOnScreenAndWritesAnOffTopicEvent(kitty: Bool) throws {
        try withTemporaryDirectory { folder in
            let answers = kitty ? [kittyAnswer, da1Answer] : [da1Answer]
            let session = try start(arguments: ["--hold", kitty ? "keys" : "mouse"], answers: answers,
                                    frames: 60, count: 2, recordFields: #""title":"Spider-Man""#, in: folder)
            defer { session.pty.close() }
            if kitty {
                #expect(session.pty.waitFor("\(esc)[>11u"), "kitty flags pushed: \(Bytes.excerpt(session.pty.bytes))")
                session.pty.type("\(esc)[32u")
                #expect(session.pty.waitFor("\(esc)[1;18H"), "the first frame: \(Bytes.excerpt(session.pty.bytes))")
            } else {
                #expect(session.pty.waitFor("x skips an off-topic GIF"), "the hint: \(Bytes.excerpt(session.pty.bytes))")
                session.holdUntilFirstFrame()
            }
            session.pty.type(kitty ? "\(esc)[120u\(esc)[120;1:2u\(esc)[120;1:3u" : "xxx")
            #expect(session.waitForEvent { $0.contains(#""kind":"shown","id":"g1""#) }, "\(session.events)")
            expectNextGIFDrawn(session)
            session.pty.type(kitty ? "\(esc)[32;1:3u" : "\(esc)[<0;5;5m")
            let result = session.finish()
            #expect(result.exitCode == 0, "\(result)")
            expectOffTopicRound(result.stdoutLines)
            expectRestored(session.pty.bytes, mouse: !kitty, kitty: kitty)
        }
    }
}
