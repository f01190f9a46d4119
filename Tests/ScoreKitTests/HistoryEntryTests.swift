import HistoryKit
import ScoreKit
import SposureKit
import Testing

@Suite struct HistoryEntryTests {
    @Test func readsBackWhatItWrites() throws {
        let entry = HistoryEntry(
            at: "2026-11-21T10:00:00Z", exposedMs: 134_000, longestHoldMs: 60_000, holds: 3, gifsShown: 23,
            gifsCompleted: 19, stalls: 2, stallMs: 1200, errors: 3, incomplete: true, durationMs: 140_000,
            sections: [.init(name: "spiders", exposedMs: 100_000), .init(name: "snakes", exposedMs: 34_000)],
            distress: Distress(before: 7, after: 4))
        let read = try #require(HistoryEntry(record: try JSONRecord.parse(entry.record().text)))
        #expect(read == entry)
        #expect(read.points == 1340 + 95)
    }

    @Test func acceptsALineWithOnlyItsExposure() throws {
        let entry = try #require(HistoryEntry(record: try JSONRecord.parse(#"{"kind":"round","exposed_ms":4200,"gifs_completed":2}"#)))
        #expect(entry.at == "")
        #expect(entry.points == 42 + 10)
        #expect(entry.distress == nil)
        #expect(entry.date == nil)
    }

    @Test(arguments: [
        #"{"kind":"score","exposed_ms":1}"#,
        #"{"kind":"round"}"#,
        #"{"kind":"round","exposed_ms":-1}"#,
        #"{"kind":"round","exposed_ms":"12"}"#,
    ])
    func refusesWhatIsNotARound(_ line: String) throws {
        #expect(HistoryEntry(record: try JSONRecord.parse(line)) == nil)
    }

    @Test func dropsDistressOutsideTheScale() throws {
        let entry = try #require(HistoryEntry(record: try JSONRecord.parse(#"{"kind":"round","exposed_ms":1,"distress_before":11,"distress_after":2}"#)))
        #expect(entry.distress == nil)
    }

    @Test func takesTheDateFromAt() {
        #expect(HistoryEntry(at: "2026-11-21T10:00:00Z", exposedMs: 0).date == "2026-11-21")
        #expect(HistoryEntry(at: "yesterday", exposedMs: 0).date == nil)
    }
}
