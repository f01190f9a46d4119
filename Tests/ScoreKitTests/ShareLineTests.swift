import HistoryKit
import ScoreKit
import Testing

@Suite struct ShareLineTests {
    @Test func saysHowLongThroughHowManyGIFsOfWhat() {
        var scored = ScoredRound(round: round(134_000, gifs: 23, sections: [("spiders", 134_000)]))
        scored.judge(against: 100_000)
        #expect(ShareLine.make(scored) == "Held on 2m 14s through 23 GIFs of spiders — personal best")
    }

    @Test func leavesOutWhatIsNotThere() {
        var scored = ScoredRound(round: round(8600, gifs: 1, sections: []))
        scored.judge(against: 10_000)
        #expect(ShareLine.make(scored) == "Held on 8.6s through 1 GIF")
        #expect(ShareLine.make(ScoredRound(round: round(0, gifs: 0, sections: []))) == "Held on 0s")
    }

    @Test func namesTheLongestSectionsFirst() {
        let two = ScoredRound(round: round(3000, gifs: 3, sections: [("snakes", 1000), ("spiders", 2000)]))
        #expect(ShareLine.make(two) == "Held on 3s through 3 GIFs of spiders and snakes")
        let four = ScoredRound(round: round(3000, gifs: 4, sections: [("a", 1), ("b", 3), ("c", 2), ("d", 0)]))
        #expect(ShareLine.make(four) == "Held on 3s through 4 GIFs of b, c and 2 more")
    }

    @Test func notesAnIncompleteRoundAndTheDistress() {
        var incomplete = round(61_000, gifs: 5, sections: [("needles", 61_000)])
        incomplete.ended = false
        let scored = ScoredRound(round: incomplete, distress: Distress(before: 7, after: 4))
        #expect(ShareLine.make(scored) == "Held on 1m 01s through 5 GIFs of needles (round cut short, distress 7 → 4)")
    }

    @Test func cleansRemoteSectionNames() {
        let name = "spi\u{1B}[31mders\u{202E}\n" + String(repeating: "x", count: 50)
        let line = ShareLine.make(ScoredRound(round: round(1000, gifs: 1, sections: [(name, 1000)])))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
        // The escape sequence goes whole, not just its ESC (issue 16: "[31m" was left behind).
        #expect(line.hasPrefix("Held on 1s through 1 GIF of spiders x"))
        #expect(line.hasSuffix("…"))
    }

    private func round(_ exposedMs: Int, gifs: Int, sections: [(String, Int)]) -> Round {
        var round = Round()
        round.ended = true
        round.exposedMs = exposedMs
        round.gifsShown = gifs
        round.sections = sections.map { SectionExposure(name: $0.0, exposedMs: $0.1) }
        return round
    }
}
