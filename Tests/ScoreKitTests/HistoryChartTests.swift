import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HistoryKit
import ScoreKit
import Testing
import TestSupport

@Suite struct HistoryChartTests {
    @Test func isWellFormedXMLWithOnePointPerRound() throws {
        var entries = rounds((1...25).map { $0 * 7000 })
        entries[4].incomplete = true
        for index in stride(from: 0, to: 25, by: 2) { entries[index].distress = Distress(before: 8 - index / 4, after: 5 - index / 6) }
        let svg = HistoryChart.svg(entries: entries)
        let shape = try parse(svg)
        #expect(shape.root == "svg")
        #expect(shape.circles["round"] == 25)
        #expect(shape.circles["best"] == 1)
        #expect(shape.circles["distress-before"] == 13)
        #expect(shape.circles["distress-after"] == 13)
        #expect(shape.texts.contains("exposure"))
        #expect(shape.texts.contains("distress"))
        #expect(shape.texts.contains("2026-11-01"))
        #expect(shape.texts.contains { $0.hasPrefix("best: 2m 55s") })
    }

    @Test func escapesRemoteTextAndDropsWhatXMLCannotHold() throws {
        var entries = rounds([1000, 2000])
        entries[0].sections = [.init(name: "<script>&\"'\u{1}\u{1B}[31m", exposedMs: 1000)]
        entries[1].at = "<2026>&"
        let svg = HistoryChart.svg(entries: entries, title: "A & B <c>")
        let shape = try parse(svg)
        #expect(shape.circles["round"] == 2)
        #expect(shape.texts.contains("A & B <c>"))
        #expect(!svg.contains("<script>"))
        #expect(!svg.contains("\u{1B}"))
    }

    @Test func drawsAnEmptyHistory() throws {
        let shape = try parse(HistoryChart.svg(entries: []))
        #expect(shape.circles["round"] == nil)
        #expect(shape.texts.contains("No rounds yet"))
    }

    @Test func drawsOneRoundWithoutDistress() throws {
        let shape = try parse(HistoryChart.svg(entries: rounds([42_000])))
        #expect(shape.circles["round"] == 1)
        #expect(shape.texts.contains { $0.hasPrefix("No distress ratings yet") })
    }

    @Test func writesTheSameChartForTheSameHistory() {
        let entries = rounds([1000, 5000, 3000])
        #expect(HistoryChart.svg(entries: entries) == HistoryChart.svg(entries: entries))
    }
}
