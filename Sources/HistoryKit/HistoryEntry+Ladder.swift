import FoundationEssentials
import Glibc
import LadderKit

extension HistoryEntry {
    /// The round as the ladder rules see it; nil when it was not on a ladder or has no readable date.
    public var ladderRound: LadderRound? {
        guard let ladder, let date = Timestamp.date(at) else { return nil }
        return LadderRound(at: date, rung: ladder.rung, exposedMs: totals.exposedMs, endReason: reason,
                           peak: ratings.peak, sudsAfter: sudsAfter, retest: ladder.retest)
    }
}

extension LadderStanding {
    /// The rounds of the ladder `name` in `entries`, oldest first.
    public static func rounds(of name: String, in entries: [HistoryEntry]) -> [LadderRound] {
        oldestFirst(entries.filter { $0.ladder?.ladder == name }.compactMap(\.ladderRound))
    }

    /// Where `entry` leaves `ladder` after its `earlier` rounds, at `now`
    /// (an entry of another ladder, or of none, moves nothing).
    public static func outcome(_ ladder: Ladder, earlier: [LadderRound], entry: HistoryEntry, now: Date) -> LadderOutcome {
        outcome(ladder, earlier: earlier, round: entry.ladder?.ladder == ladder.name ? entry.ladderRound : nil, now: now)
    }
}
