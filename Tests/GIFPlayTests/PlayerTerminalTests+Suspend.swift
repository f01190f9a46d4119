// Ctrl-Z and `fg` on the screens that wait for a key: the safety notice and
// the questions of a ladder round are drawn again after `fg`.

import Foundation
import LadderKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

extension PlayerTerminalTests {
    /// Stops the player as Ctrl-Z does (SIGTSTP), waits for it to stop, then
    /// `fg` (SIGCONT); returns the pty's mark from before the continue.
    func suspendAndContinue(_ session: Session, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let beforeStop = session.pty.count
        session.process.send(signal: SIGTSTP)
        #expect(session.pty.waitFor("\(esc)[?1049l", after: beforeStop), "left the alternate screen on Ctrl-Z",
                sourceLocation: sourceLocation)
        // SIGCONT before the player has stopped itself would be lost: wait for the stop.
        #expect(waitUntilStopped(session.process.pid), "stopped after Ctrl-Z", sourceLocation: sourceLocation)
        let beforeContinue = session.pty.count
        kill(session.process.pid, SIGCONT)
        #expect(session.pty.waitFor("\(esc)[?1049h", after: beforeContinue), "the alternate screen again after fg",
                sourceLocation: sourceLocation)
        return beforeContinue
    }

    /// Issue "Hostile input, third pass", item 8: after Ctrl-Z and `fg` the
    /// safety notice and a question before the round were a blank screen until
    /// a resize; they are drawn again at once.
    @Test func theNoticeAndAQuestionAreDrawnAgainAfterFg() throws {
        try withTemporaryDirectory { folder in
            let ladder = #""provider":"giphy","ladder":"spiders","rung":2,"rung_suds":10"#
            let environment = ["SPOSURE_DATA": folder.path, "SPOSURE_CONFIG": folder.path]
            let session = try start(arguments: ["--hold", "mouse"], recordFields: ladder, environment: environment, in: folder)
            defer { session.pty.close() }
            #expect(session.pty.waitFor("not a treatment"), "the notice: \(Bytes.excerpt(session.pty.bytes))")
            var mark = suspendAndContinue(session)
            #expect(session.pty.waitFor("not a treatment", after: mark), "the notice again after fg: \(Bytes.excerpt(session.pty.bytes))")
            mark = session.acceptNotice()
            #expect(session.pty.waitFor("How distressed are you now?", after: mark), "\(Bytes.excerpt(session.pty.bytes))")
            mark = suspendAndContinue(session)
            #expect(session.pty.waitFor("How distressed are you now?", after: mark),
                    "the question again after fg: \(Bytes.excerpt(session.pty.bytes))")
            session.pty.type("q")
            let result = session.finish()
            #expect(result.exitCode == 0, "\(result)")
            expectEnd(result.stdoutLines, reason: "quit", held: false)
            expectRestored(session.pty.bytes)
        }
    }

    /// Issue "Hostile input, third pass", item 9: at 40×10 the notice was cut
    /// off while any key accepted it. Paged, a key turns the page, and only a
    /// key on its last page accepts it.
    @Test func onASmallScreenTheNoticeIsAcceptedOnlyOnItsLastPage() throws {
        try withTemporaryDirectory { folder in
            let ladder = #""provider":"giphy","ladder":"spiders","rung":2,"rung_suds":10"#
            let environment = ["SPOSURE_DATA": folder.path, "SPOSURE_CONFIG": folder.path]
            let session = try start(arguments: ["--hold", "mouse", "--ratings", "off"], recordFields: ladder,
                                    cols: 40, rows: 10, environment: environment, in: folder)
            defer { session.pty.close() }
            let accepted = folder.appendingPathComponent("notice-accepted").path
            let pages = SafetyNotice.pages(columns: 40, rows: 10)
            // A page's first words as drawn (its indent is where the page is placed).
            func first(_ page: [String]) -> String { page[0].trimmingCharacters(in: .whitespaces) }
            for index in 0..<pages.count - 1 {
                #expect(session.pty.waitFor(first(pages[index])), "page \(index + 1): \(Bytes.excerpt(session.pty.bytes))")
                #expect(session.pty.waitFor(SafetyNotice.more), "page \(index + 1) says there is more")
                let mark = session.pty.count
                session.pty.type("x")
                #expect(session.pty.waitFor(first(pages[index + 1]), after: mark), "page \(index + 2): \(Bytes.excerpt(session.pty.bytes))")
                #expect(!FileManager.default.fileExists(atPath: accepted), "not accepted before its last page")
            }
            #expect(session.pty.waitFor("Press any key"), "the last page: \(Bytes.excerpt(session.pty.bytes))")
            session.pty.type("x")
            #expect(session.pty.waitFor("hold the mouse button"), "accepted on the last page: \(Bytes.excerpt(session.pty.bytes))")
            #expect(FileManager.default.fileExists(atPath: accepted))
            session.pty.type("q")
            let result = session.finish()
            #expect(result.exitCode == 0, "\(result)")
        }
    }
}
