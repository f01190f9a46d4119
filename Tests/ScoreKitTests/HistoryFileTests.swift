import Foundation
import HistoryKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

@Suite struct HistoryFileTests {
    @Test func findsTheFileFromTheEnvironment() {
        #expect(HistoryFile.defaultPath(environment: ["SPOSURE_DATA": "/d", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/d/history.ndjson")
        #expect(HistoryFile.defaultPath(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/sposure/history.ndjson")
        #expect(HistoryFile.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/sposure/history.ndjson")
        #expect(HistoryFile.defaultPath(environment: ["SPOSURE_DATA": "", "HOME": "/h"]) == "/h/.local/share/sposure/history.ndjson")
    }

    @Test func readsAMissingFileAsAnEmptyHistory() throws {
        try withTemporaryDirectory { dir in
            let contents = try HistoryFile(path: dir.path + "/none/history.ndjson", owner: .program).read()
            #expect(contents.entries.isEmpty)
            #expect(contents.problems.isEmpty)
        }
    }

    @Test func appendsOneLineARoundAndMakesItsFolders() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/a/b/history.ndjson", owner: .program)
            try history.append(sampleEntry(1))
            try history.append(sampleEntry(2))
            let text = try String(contentsOfFile: history.path, encoding: .utf8)
            #expect(text == sampleEntry(1).record().text + "\n" + sampleEntry(2).record().text + "\n")
            #expect(try history.read().entries == [sampleEntry(1), sampleEntry(2)])
            let mode = try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func keepsEveryLineWholeUnderTwoConcurrentWriters() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/history.ndjson", owner: .program)
            let perWriter = 200
            let failures = Failures()
            let done = DispatchGroup()
            for writer in 0..<2 {
                done.enter()
                let thread = Thread {
                    for index in 0..<perWriter {
                        var round = sampleEntry(writer * 1000 + index)
                        // Long lines make interleaving likely if the lock did not hold.
                        round.sections = (0..<40).map { .init(name: "section \(writer)-\(index)-\($0)", exposedMs: $0) }
                        do { try history.append(round) } catch { failures.add("\(error)") }
                    }
                    done.leave()
                }
                thread.start()
            }
            done.wait()
            #expect(failures.all.isEmpty)
            let text = try String(contentsOfFile: history.path, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "")
            #expect(lines.count == 2 * perWriter + 1)
            let contents = try history.read()
            #expect(contents.problems.isEmpty)
            #expect(contents.entries.count == 2 * perWriter)
            let seen = Set(contents.entries.map(\.exposedMs))
            #expect(seen == Set((0..<perWriter).flatMap { [$0, 1000 + $0] }))
            for writer in 0..<2 {
                let mine = contents.entries.map(\.exposedMs).filter { $0 / 1000 == writer }
                #expect(mine == mine.sorted())
            }
        }
    }

    @Test func ignoresAndReportsATornLastLine() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/history.ndjson", owner: .program)
            let whole = sampleEntry(1).record().text + "\n" + sampleEntry(2).record().text + "\n"
            try (whole + #"{"kind":"round","at":"2026-11-2"#).write(toFile: history.path, atomically: false, encoding: .utf8)
            let contents = try history.read()
            #expect(contents.entries == [sampleEntry(1), sampleEntry(2)])
            #expect(contents.tornTail)
            #expect(contents.problems == ["\(history.path):3: a torn last line (an interrupted write), ignored"])
        }
    }

    @Test func removesATornLastLineBeforeAppending() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/history.ndjson", owner: .program)
            let whole = sampleEntry(1).record().text + "\n"
            let torn = #"{"kind":"round","exposed_ms":12"#
            try (whole + torn).write(toFile: history.path, atomically: false, encoding: .utf8)
            let outcome = try history.append(sampleEntry(2))
            #expect(outcome.removedTornBytes == torn.utf8.count)
            let text = try String(contentsOfFile: history.path, encoding: .utf8)
            #expect(text == whole + sampleEntry(2).record().text + "\n")
            #expect(try history.read().problems.isEmpty)
        }
    }

    @Test func keepsAWholeLastLineThatOnlyLacksItsNewline() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/history.ndjson", owner: .program)
            try sampleEntry(1).record().text.write(toFile: history.path, atomically: false, encoding: .utf8)
            #expect(try history.read().entries == [sampleEntry(1)])
            let outcome = try history.append(sampleEntry(2))
            #expect(outcome.removedTornBytes == 0)
            #expect(try history.read().entries == [sampleEntry(1), sampleEntry(2)])
        }
    }

    @Test func skipsAndReportsABadLineInTheMiddle() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/history.ndjson", owner: .program)
            let text = sampleEntry(1).record().text + "\nnot json\n\n" + #"{"kind":"note"}"# + "\n" + sampleEntry(2).record().text + "\n"
            try text.write(toFile: history.path, atomically: false, encoding: .utf8)
            let contents = try history.read()
            #expect(contents.entries == [sampleEntry(1), sampleEntry(2)])
            #expect(contents.tornTail == false)
            #expect(contents.problems == [
                "\(history.path):2: not a JSON object, skipped",
                "\(history.path):4: not a round record, skipped",
            ])
        }
    }

    /// Issue 28 (smaller): a 2 MB history of garbage printed 7 873 warning lines.
    @Test func aFileOfGarbageIsSaidInAFewLines() throws {
        try withTemporaryDirectory { dir in
            let history = HistoryFile(path: dir.path + "/history.ndjson", owner: .program)
            let text = sampleEntry(1).record().text + "\n" + String(repeating: "garbage\n", count: 8_000)
            try text.write(toFile: history.path, atomically: false, encoding: .utf8)
            let contents = try history.read()
            #expect(contents.entries == [sampleEntry(1)])
            #expect(contents.problemCount == 8_000)
            #expect(contents.problems == (2...6).map { "\(history.path):\($0): not a JSON object, skipped" }
                    + ["\(history.path): and 7995 more such lines"])
        }
    }

    @Test func failsWithTheSystemsReasonWhenTheFolderCannotBeMade() throws {
        try withTemporaryDirectory { dir in
            try "x".write(toFile: dir.path + "/file", atomically: false, encoding: .utf8)
            let history = HistoryFile(path: dir.path + "/file/history.ndjson", owner: .program)
            #expect(throws: FileError.self) { try history.append(sampleEntry(1)) }
            do {
                try history.append(sampleEntry(1))
            } catch let error as FileError {
                #expect(error.code == ENOTDIR)
                #expect(error.description.hasPrefix("history: cannot create \(dir.path)/file: "))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

}

/// A round of `exposedMs` to write.
private func sampleEntry(_ exposedMs: Int) -> HistoryEntry {
    HistoryEntry(at: "2026-11-21T10:00:00Z", exposedMs: exposedMs, holds: 1, gifsShown: 2, gifsCompleted: 1,
                 sections: [.init(name: "spiders", exposedMs: exposedMs)], distress: Distress(before: 6, after: 3))
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
