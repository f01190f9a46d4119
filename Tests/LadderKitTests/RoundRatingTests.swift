import LadderKit
import RecordKit
import SposureKit
import Testing

/// The `rating` record: gif-play writes it, reads it from a ratings script,
/// and score reads it back, all through ``RoundRating``.
struct RoundRatingTests {
    private func read(_ line: String) throws -> (rating: RoundRating?, problems: [String]) {
        RoundRating.read(try JSONRecord.parse(line))
    }

    private func written(_ rating: RoundRating) -> String {
        let record = JSONRecord()
        record.set("kind", "rating")
        rating.write(to: record)
        return record.text
    }

    @Test func writesTheAnswersInTheOrderTheyAreAskedAndReadsThemBack() throws {
        let before = RoundRating(when: .before, suds: 7, expectPct: 80)
        let after = RoundRating(when: .after, suds: 4, peak: 8, happened: false)
        #expect(written(before) == #"{"kind":"rating","when":"before","suds":7,"expect_pct":80}"#)
        #expect(written(after) == #"{"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}"#)
        #expect(try read(written(before)).rating == before)
        #expect(try read(written(after)).rating == after)
        // Skipped answers are absent, and read back as skipped.
        let skipped = RoundRating(when: .after, happened: true)
        #expect(written(skipped) == #"{"kind":"rating","when":"after","happened":true}"#)
        #expect(try read(written(skipped)).rating == skipped)
    }

    @Test func answersThatDoNotBelongToTheMomentAreNotRead() throws {
        // A peak before the round, an expectancy after it: not asked then.
        #expect(try read(#"{"when":"before","suds":3,"peak":9}"#).rating == RoundRating(when: .before, suds: 3))
        #expect(try read(#"{"when":"after","expect_pct":50}"#).rating == RoundRating(when: .after))
    }

    @Test func aBadAnswerIsSkippedAndNamedTheRestKept() throws {
        let (rating, problems) = try read(#"{"when":"after","peak":11,"suds":2.5,"happened":"no"}"#)
        #expect(rating == RoundRating(when: .after))
        #expect(problems == [
            #""peak" must be a whole number from 0 to 10"#,
            #""suds" must be a whole number from 0 to 10"#,
            #""happened" must be true or false"#,
        ])
        let (expecting, why) = try read(#"{"when":"before","suds":0,"expect_pct":101}"#)
        #expect(expecting == RoundRating(when: .before, suds: 0))
        #expect(why == [#""expect_pct" must be a whole number from 0 to 100"#])
    }

    @Test func withoutBeforeOrAfterThereIsNoRating() throws {
        for line in [#"{"suds":3}"#, #"{"when":"during","suds":3}"#, #"{"when":1}"#] {
            let (rating, problems) = try read(line)
            #expect(rating == nil, "\(line)")
            #expect(problems.isEmpty)
        }
    }
}
