import ScoreKit
import Testing

@Suite struct SparklineTests {
    @Test func scalesFromZeroToTheLargest() {
        #expect(Sparkline.render([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.render([50, 100]) == "▅█")
    }

    @Test func drawsOneCharacterAValue() {
        #expect(Sparkline.render([]) == "")
        #expect(Sparkline.render([0, 0, 0]) == "▁▁▁")
        #expect(Sparkline.render(Array(repeating: 7, count: 12)).count == 12)
    }
}
