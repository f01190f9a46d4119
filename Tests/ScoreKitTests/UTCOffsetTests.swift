import Foundation
import Testing
@testable import ScoreKit

/// UTCOffset.local (the C library's local time) agrees with Foundation's own
/// time zone, which the test process loads with ICU and the tools do not.
@Suite struct UTCOffsetTests {
    @Test func localTimeIsWhatFoundationSaysHere() {
        var seconds = 1_700_000_000.0
        while seconds < 1_830_000_000 {  // 2023 to 2027: both summer-time changes each year
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCOffset.local.seconds(date) == TimeZone.current.secondsFromGMT(for: date), "\(date)")
            seconds += 86_400 * 11 + 3_599
        }
    }

    @Test func aZoneGivesItsOffsetAtEachMoment() throws {
        let berlin = UTCOffset.zone(try #require(TimeZone(identifier: "Europe/Berlin")))
        #expect(berlin.seconds(Date(timeIntervalSince1970: 1_795_255_200)) == 3600)  // November: +1
        #expect(berlin.seconds(Date(timeIntervalSince1970: 1_784_541_600)) == 7200)  // July: +2
    }
}
