import ScoreKit
import Testing

@Suite struct DurationTextTests {
    @Test(arguments: [
        (0, "0s"), (-5, "0s"), (99, "0s"), (120, "0.1s"), (1000, "1s"), (8_600, "8.6s"), (9_999, "9.9s"),
        (10_000, "10s"), (59_999, "59s"), (60_000, "1m 00s"), (134_000, "2m 14s"), (3_599_000, "59m 59s"),
        (3_600_000, "1h 00m 00s"), (3_725_000, "1h 02m 05s"),
    ])
    func writesDurationsForAPerson(_ ms: Int, _ text: String) {
        #expect(DurationText.format(milliseconds: ms) == text)
    }

    @Test(arguments: [(0, "0s"), (45_000, "45s"), (120_000, "2m"), (135_000, "2m 15s"), (7_200_000, "2h")])
    func writesShortAxisLabels(_ ms: Int, _ text: String) {
        #expect(DurationText.axisLabel(milliseconds: ms) == text)
    }
}
