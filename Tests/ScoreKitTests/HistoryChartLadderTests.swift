import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LadderKit
import HistoryKit
import RecordKit
import ScoreKit
import Testing
import TestSupport

/// `score history --plot` on ladder rounds (issue 15) and on long histories
/// (issue 16: 100,000 rounds wrote a 34.8 MB SVG with 220,280 circles).
@Suite struct HistoryChartLadderTests {
    @Test func aSmallHistoryPlotsExactlyAsBefore() throws {
        // The golden file was written by the chart before ladders and thinning.
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/score/history-chart-12-rounds.svg").standardizedFileURL
        #expect(HistoryChart.svg(entries: goldenHistory()) == (try String(contentsOf: golden, encoding: .utf8)))
    }

    @Test func ladderRoundsDrawTheRungAsAStepLineOnItsOwnScaleAndThePeaks() throws {
        var entries = rounds([61_000, 64_000, 70_000, 20_000, 66_000, 80_000])
        for (index, rung) in [1, 1, 2, 2, 1, 2].enumerated() where index != 3 {
            entries[index].ladder = LadderTag(ladder: "spiders", rung: rung, rungSuds: rung * 5)
            entries[index].ratings = RoundRatings(expectPct: 70, peak: 7 - index % 3, happened: false)
            entries[index].distress = Distress(before: 6, after: 2 + index % 2)
        }
        entries[3].distress = Distress(before: 7, after: 4)  // a round off the ladder: no peak, no rung
        let svg = HistoryChart.svg(entries: entries)
        let shape = try parse(svg)
        #expect(shape.circles["round"] == 6)
        #expect(shape.circles["distress-before"] == 6)
        #expect(shape.circles["distress-after"] == 6)
        #expect(shape.circles["distress-peak"] == 5)
        #expect(shape.texts.contains("rung"))
        #expect(shape.texts.contains("rung, spiders"))
        #expect(shape.texts.contains("peak"))
        let elements = try ChartElements(svg)
        #expect(elements.titles.filter { $0.hasPrefix("Round ") && $0.hasSuffix(", spiders rung 2") }.count == 2)
        #expect(elements.count("path", "rung") == 1)
        #expect(elements.count("text", "rung-tick") == 2)
        // The step line: rung 1 from round 1, up to 2 at round 3, held through
        // round 4 (off the ladder), down to 1 at round 5, up at round 6.
        let steps = try #require(elements.attribute("path", "rung", "d"))
        #expect(steps == "M96 205 H245.6 V205 H395.2 V80 H694.4 V205 H844 V80")
    }

    @Test func aLoneRatingOfALadderRoundIsPlottedAndAHistoryWithoutLaddersHasNoRungScale() throws {
        var entries = rounds([61_000, 62_000])
        entries[0].ladder = LadderTag(ladder: "dogs", rung: 3, rungSuds: 20)
        entries[0].ratings = RoundRatings(sudsBefore: 5)
        let shape = try parse(HistoryChart.svg(entries: entries))
        #expect(shape.circles["distress-before"] == 1)
        #expect(shape.circles["distress-after"] == nil)
        #expect(shape.texts.contains("rung, dogs"))

        let plain = try parse(HistoryChart.svg(entries: rounds([1000, 2000])))
        #expect(!plain.texts.contains("rung"))
        #expect(try ChartElements(HistoryChart.svg(entries: rounds([1000, 2000]))).count("path", "rung") == 0)
    }

    @Test func aHundredThousandRoundsPlotUnderOneMegabyteWithTheBestRoundKept() throws {
        try withTemporaryDirectory { folder in
            let path = folder.path + "/history.ndjson"
            let best = 73_421
            var text = ""
            text.reserveCapacity(20_000_000)
            for index in 0..<100_000 {
                let exposed = index == best ? 999_000 : (index * 7919) % 600_000
                let day = String(format: "%02d", index / 4000 + 1)
                text += #"{"kind":"round","at":"2026-11-\#(day)T10:00:00Z","exposed_ms":\#(exposed),"holds":1,"points":\#(exposed / 100),"incomplete":false,"sections":{"spiders":\#(exposed)},"distress_before":\#(index % 11),"distress_after":\#((index * 3) % 11),"ladder":"spiders","rung":\#(index / 10_000 + 1),"rung_suds":\#((index / 10_000) * 10),"reason":"released","peak":\#((index * 7) % 11)}"# + "\n"
            }
            try text.write(toFile: path, atomically: false, encoding: .utf8)

            let svg = try HistoryChart.svg(history: HistoryFile(path: path, owner: .program))
            #expect(svg.utf8.count < 1_000_000)
            let shape = try parse(svg)
            let circles = shape.circles.filter { !$0.key.isEmpty }.values.reduce(0, +)
            // Per pixel column at most: exposure least and most, distress before and after
            // lowest and highest, the highest peak; and the best's ring.
            #expect(circles <= 7 * HistoryChartData.columns + 1)
            #expect(shape.circles["best"] == 1)
            #expect(shape.texts.contains { $0.hasPrefix("best: 16m 39s") })
            #expect(shape.texts.contains { $0.hasPrefix("100000 rounds, 2026-11-01 to 2026-11-25 (thinned") })
            let elements = try ChartElements(svg)
            #expect(elements.titles.contains { $0.hasPrefix("Round \(best + 1), 2026-11-19: 16m 39s") })
            #expect(elements.count("path", "rung") == 1)

            // --last reads the file the same way and draws the latest rounds only.
            let last = try HistoryChart.svg(history: HistoryFile(path: path, owner: .program), last: 500)
            let entries = try HistoryFile(path: path, owner: .program).read().entries.suffix(500)
            #expect(last == HistoryChart.svg(entries: Array(entries)))
        }
    }
}

/// Every element of a chart by name and class, and their attributes (ChartShape counts only circles and text).
struct ChartElements {
    private var elements: [(name: String, attributes: [String: String])] = []
    /// The text of every `title` element.
    private(set) var titles: [String] = []

    init(_ svg: String) throws {
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        guard parser.parse() else { throw reader.failure ?? CocoaError(.fileReadCorruptFile) }
        elements = reader.elements
        titles = reader.titles
    }

    func count(_ name: String, _ className: String) -> Int {
        elements.filter { $0.name == name && $0.attributes["class"] == className }.count
    }

    func attribute(_ name: String, _ className: String, _ attribute: String) -> String? {
        elements.first { $0.name == name && $0.attributes["class"] == className }?.attributes[attribute]
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var titles: [String] = []
        var failure: Error?
        private var title: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append((name, attributes))
            if name == "title" { title = "" }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { title? += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "title", let done = title { titles.append(done) }
            if name == "title" { title = nil }
        }
        func parser(_ parser: XMLParser, parseErrorOccurred error: Error) { failure = error }
    }
}

/// The twelve rounds of Tests/Fixtures/score/history-chart-12-rounds.svg.
func goldenHistory() -> [HistoryEntry] {
    (0..<12).map { index in
        var entry = HistoryEntry(at: "2026-11-\(String(format: "%02d", index + 1))T10:00:00Z",
                                 exposedMs: [4000, 9000, 12500, 8000, 30000, 21000, 45000, 45000, 38000, 60500, 12000, 52000][index],
                                 gifsCompleted: index)
        entry.incomplete = index == 3
        if index % 2 == 0 { entry.distress = Distress(before: 8 - index / 2, after: 5 - index / 3) }
        entry.sections = [.init(name: index == 5 ? "spiders & <snakes>" : "spiders", exposedMs: entry.exposedMs)]
        return entry
    }
}
