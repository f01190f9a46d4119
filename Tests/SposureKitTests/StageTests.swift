import Foundation
import RecordKit
import SposureCLI
import Testing
import TestSupport
@testable import SposureKit

/// Runs a pass-through stage over real pipes: every record is written back
/// as read, every bad line as its error record. Returns stdout, stderr and the exit status.
func runPassThrough(_ input: String, options: [String] = []) throws -> (out: [String], err: String, status: Int32) {
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    let stage = Stage(name: "test-stage", options: try StreamOptions.parse(options).stageOptions,
                      inputFD: stdin.fileHandleForReading.fileDescriptor,
                      outputFD: stdout.fileHandleForWriting.fileDescriptor,
                      errorFD: stderr.fileHandleForWriting.fileDescriptor)
    let feeder = Thread {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
    }
    feeder.start()
    stage.start(trapSignals: false)
    var failed = false
    while case let batch = stage.input.popBatch(), !batch.isEmpty {
        for item in batch {
            switch item {
            case .record(let record): stage.output.push(record.raw)
            case .passThrough(_, let raw): stage.output.push(raw)
            case .bad(let bad):
                failed = true
                stage.output.push(stage.badLineRecord(bad))
            }
        }
    }
    let status = stage.drain(failed: failed)
    try stdout.fileHandleForWriting.close()
    try stderr.fileHandleForWriting.close()
    let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), err, status)
}

@Suite struct StageTests {
    @Test func passesRecordsThroughByteForByte() throws {
        let result = try runPassThrough("{\"kind\":\"x\", \"a\" : 0.1}\n{\"b\":[1,2]}\r\n")
        #expect(result.out == [#"{"kind":"x", "a" : 0.1}"#, #"{"b":[1,2]}"#])
        #expect(result.err == "")
        #expect(result.status == 0)
    }

    @Test func turnsABadLineIntoAnErrorRecordAtItsPlace() throws {
        let result = try runPassThrough("{\"n\":1}\n\nnot json\n[1]\n{\"n\":2}")
        #expect(result.out == [
            #"{"n":1}"#,
            #"{"kind":"error","stage":"test-stage","code":"bad_json","line":3,"text":"not json","error":"not a JSON object ('[' or '{' expected near 'not')"}"#,
            #"{"kind":"error","stage":"test-stage","code":"bad_json","line":4,"text":"[1]","error":"not a JSON object (found an array)"}"#,
            #"{"n":2}"#,
        ])
        #expect(result.err.contains("test-stage: stdin:3: not a JSON object"))
        #expect(result.err.contains("test-stage: stdin:4: "))
        #expect(result.status == 1)
    }

    @Test func reportsInvalidUTF8WithReadableText() throws {
        let result = try runPassThrough("{\"t\":\"caf\u{00E9}\"}\n" + String(decoding: [0x7B, 0x22, 0xFF, 0x22, 0x7D], as: UTF8.self) + "\n")
        #expect(result.out.count == 2)
        #expect(result.out[1].contains(#""code":"bad_json","line":2"#))
    }

    @Test func cutsTheTextOfAnOverLongLine() throws {
        let long = "{\"x\":\"" + String(repeating: "a", count: 10_000) + "\"}"
        let result = try runPassThrough(long + "\n{\"ok\":1}\n", options: ["--max-line", "1KB"])
        #expect(result.out.count == 2)
        let record = try JSONRecord.parse(result.out[0])
        #expect(record.string("code") == "bad_json")
        #expect(record.int("line") == 1)
        #expect(record.string("text")?.count == BadLine.textLimit)
        #expect(record.string("error") == "line is 10008 bytes, longer than --max-line 1000")
        #expect(result.out[1] == #"{"ok":1}"#)
    }

    /// Regression (issue 16 #11): a bad line's text was cut to 120 Swift
    /// Characters, 121 code points when one of them was "\r\n" or a letter
    /// with a combining accent; the docs promise 120.
    @Test func cutsTheTextOfABadLineTo120CodePoints() {
        let accented = String(repeating: "e\u{301}", count: 100)
        let bad = BadLine(line: 1, bytes: Array(accented.utf8), reason: "x")
        #expect(bad.text.unicodeScalars.count == BadLine.textLimit)
        let crlf = BadLine(line: 1, bytes: Array((String(repeating: "a", count: 119) + "\r\nb").utf8), reason: "x")
        #expect(crlf.text.unicodeScalars.count == BadLine.textLimit)
        #expect(crlf.text.hasSuffix("a\r"))
    }

    @Test func strictStopsAtTheFirstBadLineKeepingWhatCameBefore() throws {
        let result = try runPassThrough("{\"n\":1}\nbad\n{\"n\":2}\n", options: ["--strict"])
        #expect(result.out == [#"{"n":1}"#])
        #expect(result.err == "test-stage: stdin:2: not a JSON object ('[' or '{' expected near 'bad') (--strict: stopping)\n")
        #expect(result.status == 2)
    }

    @Test func quietSilencesWarningsButNotTheRecords() throws {
        let result = try runPassThrough("bad\n", options: ["--quiet"])
        #expect(result.out.count == 1)
        #expect(result.err == "")
    }

    @Test func rejectsAZeroBuffer() {
        #expect(throws: (any Error).self) { try StreamOptions.parse(["--buffer", "0"]) }
    }
}

@Suite struct DiagnosticsTests {
    @Test func makesControlCharactersVisible() {
        #expect(Diagnostics.sanitize("title\u{1B}]0;pwned\u{07}\u{9B}2J ok") == "title\\u{1b}]0;pwned\\u{7}\\u{9b}2J ok")
        #expect(Diagnostics.sanitize("plain é") == "plain é")
    }

    @Test func prefixesMessagesWithTheToolAndHonoursQuiet() throws {
        let pipe = Pipe()
        let loud = Diagnostics(tool: "t", quiet: false, fd: pipe.fileHandleForWriting.fileDescriptor, environment: [:])
        let quiet = Diagnostics(tool: "t", quiet: true, fd: pipe.fileHandleForWriting.fileDescriptor, environment: [:])
        loud.warning("one\u{1B}[2J")
        quiet.warning("hidden")
        quiet.error("shown")
        loud.progress("not a terminal: never shown")
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == "t: one\\u{1b}[2J\nt: shown\n")
    }

    @Test func leavesProgressAndNotesOutWhileAFullScreenProgramHasTheTerminal() throws {
        let tty = try StderrTerminal()
        let diagnostics = Diagnostics(tool: "t", fd: tty.slave, environment: ["NO_COLOR": "1"])
        diagnostics.progress("1/3 images")
        diagnostics.note("cooked: shown")
        #expect(tty.written() == "\r\u{1B}[K1/3 images\r\u{1B}[Kt: cooked: shown\r\n")
        // A player turns canonical input off: progress, notes and the progress
        // line's clearing stay off its screen; a warning still goes out.
        tty.setCanonical(false)
        diagnostics.progress("2/3 images")
        diagnostics.note("raw: left out")
        diagnostics.clearProgress()
        diagnostics.warning("raw: shown")
        #expect(tty.written() == "t: raw: shown\r\n")
        // Given back (canonical input on): that warning was on the program's
        // alternate screen, so it is written again, once.
        diagnostics.repeatCovered()
        #expect(tty.written() == "", "not while the program still has the terminal")
        tty.setCanonical(true)
        diagnostics.warning("cooked: not covered")
        #expect(tty.written() == "t: cooked: not covered\r\n")
        diagnostics.repeatCovered()
        #expect(tty.written() == "t: raw: shown\r\n")
        diagnostics.repeatCovered()
        #expect(tty.written() == "")
    }

    @Test func keepsTheLastCoveredMessagesAndSaysHowManyThereWere() throws {
        let tty = try StderrTerminal()
        tty.setCanonical(false)
        let diagnostics = Diagnostics(tool: "t", fd: tty.slave, environment: ["NO_COLOR": "1"])
        let total = Diagnostics.coveredLimit + 5
        for n in 1...total { diagnostics.error("e\(n)") }
        #expect(tty.written() == (1...total).map { "t: e\($0)\r\n" }.joined(), "each written once while raw")
        tty.setCanonical(true)
        diagnostics.repeatCovered()
        let last = (6...total).map { "t: e\($0)\r\n" }.joined()
        #expect(tty.written() == "t: \(total) messages while the terminal was in use; the last \(Diagnostics.coveredLimit):\r\n" + last)
    }
}

/// A pty standing for stderr on a terminal: what is written to `slave` comes
/// out of `master` as written (no output processing).
final class StderrTerminal {
    let master: Int32, slave: Int32

    init() throws {
        (master, slave, _) = try PseudoTerminalPair.open()
        var mode = termios()
        tcgetattr(slave, &mode)
        mode.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(slave, TCSANOW, &mode)
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Canonical input on, as a shell leaves it, or off, as a full-screen program sets it.
    func setCanonical(_ on: Bool) {
        var mode = termios()
        tcgetattr(slave, &mode)
        if on { mode.c_lflag |= tcflag_t(ICANON | ECHO) } else { mode.c_lflag &= ~tcflag_t(ICANON | ECHO) }
        tcsetattr(slave, TCSANOW, &mode)
    }

    /// What came out since the last look, until it stays quiet for 0.1 s.
    func written() -> String {
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        var text = ""
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while poll(&ready, 1, 100) == 1 {
            let count = read(master, &bytes, bytes.count)
            guard count > 0 else { break }
            text += String(decoding: bytes[..<count], as: UTF8.self)
        }
        return text
    }
}

@Suite struct UnitsTests {
    /// Review fix: `--max-time 30000000000` was taken and overflowed the clock's nanoseconds.
    @Test func aTimeSpanIsAtMostAYear() {
        #expect(TimeSpan(argument: "8760h")?.seconds == 365.0 * 86_400)
        #expect(TimeSpan(argument: "8761h") == nil)
        #expect(TimeSpan(argument: "30000000000") == nil)
    }

    @Test func parsesByteCounts() {
        #expect(ByteCount(argument: "123")?.bytes == 123)
        #expect(ByteCount(argument: "512KB")?.bytes == 512_000)
        #expect(ByteCount(argument: "20mb")?.bytes == 20_000_000)
        #expect(ByteCount(argument: "1GiB")?.bytes == 1 << 30)
        #expect(ByteCount(argument: "1.5MiB")?.bytes == 1_572_864)
        #expect(ByteCount(argument: "lots") == nil)
        #expect(ByteCount(argument: "-1") == nil)
    }

    @Test func parsesTimeSpans() {
        #expect(TimeSpan(argument: "250ms")?.milliseconds == 250)
        #expect(TimeSpan(argument: "10s")?.seconds == 10)
        #expect(TimeSpan(argument: "1.5")?.seconds == 1.5)
        #expect(TimeSpan(argument: "2m")?.seconds == 120)
        #expect(TimeSpan(argument: "soon") == nil)
    }
}

@Suite struct SignalTrapPendingTests {
    @Test func aSignalNotTakenYetIsSeenAsPending() {
        // Blocked on this thread only and sent to this thread only: it waits,
        // pending, as a signal does before the trap thread's sigwait takes it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        #expect(SignalTrap.pending() == nil)
        pthread_kill(pthread_self(), SIGHUP)
        #expect(SignalTrap.pending() == SIGHUP)
        var taken: Int32 = 0
        #expect(sigwait(&set, &taken) == 0 && taken == SIGHUP)
        #expect(SignalTrap.pending() == nil)
    }
}
