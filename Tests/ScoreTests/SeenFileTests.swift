// Issue 28 #8 and #9: seen.ndjson, what each round showed. Trimming read the
// file under a shared lock and replaced it, so rounds appended meanwhile were
// lost; a 300 MB line was read whole; and a seen file that could not be
// written made score exit 2 after it had scored and kept the round (a folder,
// a link and a FIFO: Tests/Fixtures/score/a-seen-file-that-is-a-*).

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
}
