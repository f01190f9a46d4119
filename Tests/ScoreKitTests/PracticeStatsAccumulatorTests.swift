import Foundation
import LadderKit
import HistoryKit
import RecordKit
@testable import ScoreKit
import SposureKit
import Testing

/// Practice figures added up one round at a time give what the whole array
/// of rounds gave before (issue 16).
@Suite struct PracticeStatsAccumulatorTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test func manyRoundsStreamedGiveTheWholeArrayFigures() throws {
        let entries = manyRounds(5_000)
        let last = try #require(entries.last.flatMap { Timestamp.date($0.at) })
        // Today the last round's day, the day after, and a week on (the streak broken).
        for now in [last, last + 86_400, last + 8 * 86_400] {
            for zone in [utc, TimeZone(identifier: "Asia/Tokyo")!, TimeZone(identifier: "America/New_York")!] {
                var accumulator = PracticeStats.Accumulator(now: now, offset: .zone(zone))
                for entry in entries { accumulator.add(entry) }
                let reference = referencePractice(entries, now: now, timeZone: zone)
                #expect(accumulator.stats == reference, "\(now) in \(zone.identifier)")
                #expect(accumulator.hasLadderRounds)
            }
        }
        let reference = referencePractice(entries, now: last, timeZone: utc)
        #expect(reference.streakDays > 300)
        #expect(reference.rungs.count == 16)
    }

    @Test func roundsAfterTodayAndWithoutADateCountOnlyForTheRungs() {
        let now = Date(timeIntervalSince1970: 1_795_255_200)  // 2026-11-21T10:00:00Z
        var future = HistoryEntry(at: "2026-11-22T10:00:00Z", exposedMs: 1000)
        future.ladder = LadderTag(ladder: "dogs", rung: 2, rungSuds: 20)
        var undated = HistoryEntry(at: "yesterday", exposedMs: 2000)
        undated.ladder = LadderTag(ladder: "dogs", rung: 2, rungSuds: 20)
        let entries = [HistoryEntry(at: "2026-11-21T09:00:00Z", exposedMs: 500), future, undated]
        let stats = PracticeStats(entries: entries, now: now, offset: .zone(utc))
        #expect(stats == referencePractice(entries, now: now, timeZone: utc))
        #expect(stats.roundsToday == 1)
        #expect(stats.streakDays == 1)
        #expect(stats.rungs.map(\.rounds) == [2])
        #expect(!PracticeStats.Accumulator(now: now).hasLadderRounds)
    }
}

/// `PracticeStats(entries:now:timeZone:)` as it was computed over the whole
/// array before issue 16: the reference for the accumulator.
func referencePractice(_ entries: [HistoryEntry], now: Date, timeZone: TimeZone) -> PracticeStats {
    var stats = PracticeStats(entries: [], now: now, offset: .zone(timeZone))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let today = calendar.startOfDay(for: now)
    var days = Set<Date>()
    for entry in entries {
        guard let date = Timestamp.date(entry.at) else { continue }
        let day = calendar.startOfDay(for: date)
        days.insert(day)
        if day == today {
            stats.roundsToday += 1
            stats.exposedMsToday += entry.exposedMs
        }
    }
    var cursor = days.contains(today) ? today : calendar.date(byAdding: .day, value: -1, to: today) ?? today
    while days.contains(cursor) {
        stats.streakDays += 1
        cursor = calendar.date(byAdding: .day, value: -1, to: cursor) ?? cursor
    }
    stats.daysThisWeek = (0..<7).filter { offset in
        calendar.date(byAdding: .day, value: -offset, to: today).map(days.contains) ?? false
    }.count

    var order: [String] = []
    var grouped: [String: [HistoryEntry]] = [:]
    for entry in entries {
        guard let tag = entry.ladder else { continue }
        let key = "\(tag.ladder)#\(tag.rung)"
        if grouped[key] == nil { order.append(key) }
        grouped[key, default: []].append(entry)
    }
    stats.rungs = order.compactMap { key in
        guard let group = grouped[key], let tag = group.first?.ladder else { return nil }
        func mean(_ values: [Int]) -> Double? {
            values.isEmpty ? nil : (Double(values.reduce(0, +)) / Double(values.count) * 10).rounded() / 10
        }
        return PracticeStats.RungDistress(ladder: tag.ladder, rung: tag.rung, rounds: group.count,
                                          meanBefore: mean(group.compactMap { $0.ratings.sudsBefore ?? $0.distress?.before }),
                                          meanAfter: mean(group.compactMap { $0.ratings.sudsAfter ?? $0.distress?.after }))
    }
    let answered = entries.compactMap { entry -> (Int, Bool)? in
        guard let expect = entry.ratings.expectPct, let happened = entry.ratings.happened else { return nil }
        return (expect, happened)
    }
    if !answered.isEmpty {
        let meanExpected = Double(answered.map(\.0).reduce(0, +)) / Double(answered.count)
        let happened = Double(answered.filter(\.1).count) * 100 / Double(answered.count)
        stats.expectancy = PracticeStats.Expectancy(rounds: answered.count, meanExpectedPct: Int(meanExpected.rounded()),
                                                    happenedPct: Int(happened.rounded()))
    }
    return stats
}
