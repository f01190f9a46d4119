import Foundation
import HistoryKit
import ScoreKit
import Testing

@Suite struct TimestampTests {
    @Test func writesUTCToTheSecond() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_255_200.7)) == "2026-11-21T10:00:00Z")
    }

    /// The calendar arithmetic agrees with Foundation's from 1900 on (before
    /// 1582 Foundation goes Julian; ISO 8601 does not).
    @Test func writesAndReadsAsFoundationDoes() throws {
        var seconds = -2_208_988_800.0  // 1900-01-01
        while seconds < 253_402_300_799 {  // 9999-12-31T23:59:59
            let date = Date(timeIntervalSince1970: seconds)
            let text = Date.ISO8601FormatStyle().format(date)
            #expect(Timestamp.format(date) == text)
            #expect(Timestamp.date(text) == date)
            #expect(Timestamp.date(text.replacingOccurrences(of: "Z", with: ".5+02:30"))
                    == date.addingTimeInterval(0.5 - 9000))
            seconds += 86_400 * 97 + 3_671
        }
    }

    @Test func normalizesOffsetsAndFractions() {
        #expect(Timestamp.normalize("2026-11-21T11:00:00+01:00") == "2026-11-21T10:00:00Z")
        #expect(Timestamp.normalize("2026-11-21T10:00:00.250Z") == "2026-11-21T10:00:00Z")
        #expect(Timestamp.normalize("2026-11-21T10:00:00Z") == "2026-11-21T10:00:00Z")
        #expect(Timestamp.normalize("2026-11-21T10:00:00.999-00:30") == "2026-11-21T10:30:00Z")
        #expect(Timestamp.normalize("0001-01-01T00:00:00Z") == "0001-01-01T00:00:00Z")
        // A fraction a hair below the next second stays in its second (and day).
        #expect(Timestamp.normalize("2026-11-21T23:59:59.99999999Z") == "2026-11-21T23:59:59Z")
    }

    // Impossible dates are refused in every form, never rolled over to the next month.
    @Test(arguments: ["", "yesterday", "2026-11-21", "2026-13-01T00:00:00Z", "2026-02-30T10:00:00Z",
                      "2026-02-30T11:00:00+01:00", "2026-11-21T24:00:00.5Z", "2026-11-21T10:00:00", "2026-11-21T10:00:00+01:00x"])
    func refusesWhatIsNotADateAndTime(_ text: String) {
        #expect(Timestamp.normalize(text) == nil)
    }
}
