// The scripts a person writes or records for gif-play (`--hold script:FILE`,
// `--ratings script:FILE`), read as hostile input: any line ending, a
// byte-order mark, files that are not files, and lines that would lose an
// answer without a word.

import Foundation
import PlayerKit
import TestSupport
import Testing

@Suite struct ScriptFileTests {
    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func everyLineEndingAndAByteOrderMarkReadTheSame() throws {
        let lines = [#"{"when":"before","suds":7,"expect_pct":80}"#, #"{"t_ms":400,"rated":8}"#, "",
                     #"{"when":"after","peak":8,"suds":4,"happened":false}"#]
        let expected = RatingScript(before: .init(when: .before, suds: 7, expectPct: 80),
                                    after: .init(when: .after, suds: 4, peak: 8, happened: false), rated: [(400, 8)])
        for end in ["\n", "\r\n", "\r"] {
            #expect(try RatingScript.parse(lines.joined(separator: end) + end, name: "r") == expected, "\(Array(end.utf8))")
            #expect(try RatingScript.parse("\u{FEFF}" + lines.joined(separator: end), name: "r") == expected)
        }
        // Line numbers count CRLF once.
        #expect(message { _ = try RatingScript.parse("{\"t_ms\":1,\"rated\":2}\r\n\r\n{\"when\":\"now\"}\r\n", name: "r") }
            == #"r:3: each line needs "when": "before" or "after", or "t_ms" and "rated""#)
        #expect(message { _ = try RatingScript.parse("{\"t_ms\":1,\"rated\":2}\r{\"when\":\"now\"}", name: "r") }
            == #"r:2: each line needs "when": "before" or "after", or "t_ms" and "rated""#, "CR alone ends a line too")
        #expect(message { _ = try RatingScript.parse("\r\n\r\n{\"when\":\"after\",\"suds\":\"4\"}\r\n", name: "r") }
            == #"r:3: "suds" must be a whole number from 0 to 10"#)
    }

    @Test func aLineThatWouldLoseAnAnswerIsRefusedByLine() {
        func refusal(_ text: String) -> String? { message { _ = try RatingScript.parse(text, name: "r") } }
        #expect(refusal(#"{"when":"before","suds":7,"t_ms":400,"rated":8}"#)
            == #"r:1: "when" does not belong on a "rated" line (it has "rated", "t_ms")"#)
        #expect(refusal(#"{"when":"before","suds":7,"peak":9}"#)
            == #"r:1: "peak" does not belong on a "before" line (it has "expect_pct", "suds", "when")"#)
        #expect(refusal("{\"when\":\"before\",\"suds\":7}\n{\"when\":\"before\",\"suds\":3}")
            == #"r:2: a second "before" line (the first is line 1); a round asks once"#)
        #expect(refusal(#"{"rated":8}"#) == #"r:1: a "rated" line needs "t_ms", when the digit is pressed (ms)"#)
        #expect(refusal(#"{"t_ms":400.5,"rated":8}"#) == #"r:1: "t_ms" must be a whole number of ms ≥ 0, found 400.5"#)
        #expect(refusal(#"{"t_ms":"400","rated":8}"#) == #"r:1: "t_ms" must be a whole number of ms ≥ 0, found "400""#)
        #expect(refusal(#"{"t_ms":400}"#) == #"r:1: "rated" must be a digit 0 to 9, found nothing"#)
        #expect(refusal(#"{"t_ms":400,"rated":10}"#) == #"r:1: "rated" must be a digit 0 to 9, found 10"#)
        #expect(refusal("{\"t_ms\":1,\"rated\":\"\u{FF}\"}")?.hasPrefix("r:1: ") == true)
        // A rating event copied from gif-play's own output is a line of the script.
        #expect(refusal(#"{"kind":"rating","when":"after","suds":4}"#) == nil)
    }

    @Test func aFileThatCannotBeReadIsOneLineNamingItAndWhy() throws {
        try withTemporaryDirectory { folder in
            let missing = folder.appendingPathComponent("missing.ndjson").path
            #expect(message { _ = try RatingScript.load(path: missing) } == "\(missing): No such file or directory")
            #expect(message { _ = try ScriptedHold.load(path: missing) } == "\(missing): No such file or directory")
            #expect(message { _ = try RatingScript.load(path: folder.path) } == "\(folder.path): is a folder, not a file")

            let fifo = folder.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // Not opened at all: no writer will ever come.
            #expect(message { _ = try ScriptedHold.load(path: fifo) } == "\(fifo): not a regular file")

            let dangling = folder.appendingPathComponent("dangling.ndjson").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder.path + "/gone")
            #expect(message { _ = try RatingScript.load(path: dangling) } == "\(dangling): No such file or directory (a link to nothing)")

            let huge = folder.appendingPathComponent("huge.ndjson").path
            #expect(FileManager.default.createFile(atPath: huge, contents: nil))
            #expect(truncate(huge, 17 << 20) == 0)
            #expect(message { _ = try RatingScript.load(path: huge) }
                == "\(huge): 17825792 bytes, more than the 16384 KiB such a file may have")

            let crlf = folder.appendingPathComponent("hold.ndjson").path
            try "{\"t_ms\":0,\"down\":true}\r\n{\"t_ms\":500,\"down\":false}\r\n".write(toFile: crlf, atomically: true, encoding: .utf8)
            #expect(try ScriptedHold.load(path: crlf) == [ScriptedHold(atMs: 0, down: true), ScriptedHold(atMs: 500, down: false)])
        }
    }
}
