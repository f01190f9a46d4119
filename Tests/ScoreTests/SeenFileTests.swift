// Issue 28 #8 and #9: seen.ndjson, what each round showed. Trimming read the
// file under a shared lock and replaced it, so rounds appended meanwhile were
// lost; a 300 MB line was read whole; and a seen file that could not be
// written made score exit 2 after it had scored and kept the round.

import Foundation
import Synchronization
import HistoryKit
import SposureKit
import Testing
import TestSupport

@Suite struct SeenFileTests {
    func round(_ id: String) -> SeenRound {
        SeenRound(at: "2026-11-21T10:00:00Z", query: "spiders", gifs: [SeenRound.GIF(provider: "giphy", id: id)])
    }

    /// Ten trials of 40 writers across the bound: before the fix, one trial
    /// in two or three lost rounds on two cores.
    @Test(arguments: 0..<10)
    func concurrentAppendsAcrossTheTrimLoseNoRound(_ trial: Int) throws {
        try withTemporaryDirectory { folder in
            let path = folder.path + "/seen.ndjson"
            let filler = (0..<(SeenFile.limit - 10)).map { _ in round("old").record().text + "\n" }.joined()
            try Data(filler.utf8).write(to: URL(fileURLWithPath: path))
            let writers = 40
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: writers) { index in
                do { try SeenFile(path: path).append(round("new\(index)")) } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let ids = try SeenFile(path: path).rounds().flatMap { $0.gifs.map(\.id) }
            #expect(Set(ids.filter { $0.hasPrefix("new") }) == Set((0..<writers).map { "new\($0)" }), "every round kept")
            #expect(ids.count <= SeenFile.limit)
        }
    }

    @Test func aLineTooLongIsSkippedAndSaid() throws {
        try withTemporaryDirectory { folder in
            let path = folder.path + "/seen.ndjson"
            var bytes = Array((round("before").record().text + "\n").utf8)
            bytes += [UInt8](repeating: 0x61, count: SeenFile.maxLineBytes + 10) + [0x0A]
            bytes += Array((round("after").record().text + "\n").utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let said = Mutex<[String]>([])
            let file = SeenFile(path: path, warn: { message in said.withLock { $0.append(message) } })
            #expect(try file.rounds().flatMap { $0.gifs.map(\.id) } == ["before", "after"])
            #expect(said.withLock { $0 } == ["\(path): line 2 longer than 16 MiB, skipped"])
        }
    }

    /// A seen file that is a FIFO: the round is scored and kept in the
    /// history, score warns and exits 0 (it exited 2, and sposure play then
    /// said the round could not be played or scored). A folder and a link
    /// are Tests/Fixtures/score/a-seen-file-that-is-a-*.
    @Test func aSeenFileThatIsAFIFOIsAWarningNotAFailure() throws {
        try withTemporaryDirectory { folder in
            let data = folder.path + "/data", seen = data + "/seen.ndjson"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            #expect(mkfifo(seen, 0o600) == 0)
            let result = try StageProcess.run("score", arguments: ["--format", "json", "--now", "2026-11-21T11:00:00Z"],
                                              environment: ["SPOSURE_DATA": data, "SPOSURE_CONFIG": folder.path + "/config"],
                                              stdin: stream([Event.start(), Event.shown("a", start: 0, end: 2000), Event.end(2000)]))
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdoutLines.first?.contains(#""exposed_ms":2000"#) == true)
            #expect(result.stderr.hasPrefix("score: ") && result.stderr.contains("the GIFs this round showed are not kept as seen"), "\(result.stderr)")
            let history = try String(contentsOfFile: data + "/history.ndjson", encoding: .utf8)
            #expect(history.split(separator: "\n").count == 1)
        }
    }
}
