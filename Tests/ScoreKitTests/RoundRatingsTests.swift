import RecordKit
import HistoryKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

/// The player's `rating` events, as `score` reads them (issue 15).
@Suite struct RoundRatingsTests {
    /// Each line read as its event (RoundEvent.read), its answers taken.
    func take(_ lines: [String]) throws -> (RoundRatings, [String?]) {
        var ratings = RoundRatings()
        let warnings = try lines.map { line -> String? in
            let (event, warning) = RoundEvent.read(try JSONRecord.parse(line))
            if case .rating(let rating)? = event { ratings.take(rating) }
            return warning
        }
        return (ratings, warnings)
    }

    @Test func readsTheAnswersBeforeAndAfter() throws {
        let (ratings, warnings) = try take([
            #"{"kind":"rating","when":"before","suds":7,"expect_pct":80}"#,
            #"{"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}"#,
        ])
        #expect(warnings == [nil, nil])
        #expect(ratings == RoundRatings(sudsBefore: 7, expectPct: 80, peak: 8, sudsAfter: 4, happened: false))
        #expect(ratings.distress == Distress(before: 7, after: 4))
        let record = JSONRecord()
        ratings.write(to: record)
        #expect(record.text == #"{"suds_before":7,"expect_pct":80,"peak":8,"suds_after":4,"happened":false}"#)
    }

    @Test func aSkippedAnswerStaysNilAndALaterOneReplaces() throws {
        let (ratings, _) = try take([
            #"{"kind":"rating","when":"before","suds":6}"#,
            #"{"kind":"rating","when":"before","suds":5}"#,
            #"{"kind":"rating","when":"after","happened":true}"#,
        ])
        #expect(ratings == RoundRatings(sudsBefore: 5, happened: true))
        #expect(ratings.distress == nil)
        #expect(!ratings.isEmpty)
        #expect(RoundRatings().isEmpty)
    }

    @Test func anAnswerOutOfRangeIsSkippedWithAWarning() throws {
        let (ratings, warnings) = try take([
            #"{"kind":"rating","when":"before","suds":11,"expect_pct":70}"#,
            #"{"kind":"rating","when":"after","peak":"high","suds":3,"happened":"no"}"#,
            #"{"kind":"rating","when":"during","suds":3}"#,
        ])
        #expect(ratings == RoundRatings(expectPct: 70, sudsAfter: 3))
        #expect(warnings == [
            "a rating record: \"suds\" must be a whole number from 0 to 10; that answer skipped",
            "a rating record: \"peak\" must be a whole number from 0 to 10, \"happened\" must be true or false; those answers skipped",
            "a rating record whose when is neither before nor after, skipped",
        ])
    }

    @Test func theScorerKeepsTheRatingsOfTheRoundTheyCameIn() throws {
        let rounds = score([
            Event.start(at: "2026-11-20T10:00:00Z"), #"{"kind":"rating","when":"before","suds":7}"#, Event.end(1000),
            Event.start(at: "2026-11-21T10:00:00Z"), #"{"kind":"rating","when":"after","suds":2}"#, Event.end(1000),
        ]).rounds
        #expect(rounds.map(\.ratings) == [RoundRatings(sudsBefore: 7), RoundRatings(sudsAfter: 2)])
    }
}
