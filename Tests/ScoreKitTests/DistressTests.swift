import HistoryKit
import ScoreKit
import Testing

@Suite struct DistressTests {
    @Test func readsBeforeAndAfter() throws {
        #expect(try Distress.parse("7,4") == Distress(before: 7, after: 4))
        #expect(try Distress.parse(" 0 , 10 ") == Distress(before: 0, after: 10))
    }

    @Test(arguments: ["7", "7,4,1", "11,2", "-1,2", "a,b", "7,", ",4", "7.5,4", "", "٣,4"])
    func refusesWhatIsNotTwoRatingsFromZeroToTen(_ text: String) {
        #expect(throws: DistressError.self) { try Distress.parse(text) }
    }

    @Test func saysWhatIsWrong() {
        do {
            _ = try Distress.parse("11,2")
            Issue.record("accepted 11")
        } catch {
            #expect(error.description == "--distress 11,2: 11 is outside 0–10 (0 calm, 10 the worst).")
        }
    }

    @Test func refusesRatingsOffTheScale() {
        #expect(Distress(before: 11, after: 0) == nil)
        #expect(Distress(before: 0, after: -1) == nil)
    }
}
