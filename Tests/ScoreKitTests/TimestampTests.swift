import Foundation
import ScoreKit
import Testing

@Suite struct TimestampTests {
    @Test func writesUTCToTheSecond() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_255_200.7)) == "2026-11-21T10:00:00Z")
    }

    @Test func normalizesOffsetsAndFractions() {
        #expect(Timestamp.normalize("2026-11-21T11:00:00+01:00") == "2026-11-21T10:00:00Z")
        #expect(Timestamp.normalize("2026-11-21T10:00:00.250Z") == "2026-11-21T10:00:00Z")
        #expect(Timestamp.normalize("2026-11-21T10:00:00Z") == "2026-11-21T10:00:00Z")
    }

    @Test(arguments: ["", "yesterday", "2026-11-21", "2026-13-01T00:00:00Z"])
    func refusesWhatIsNotADateAndTime(_ text: String) {
        #expect(Timestamp.normalize(text) == nil)
    }
}
