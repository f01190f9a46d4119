import FoundationEssentials
import Glibc
import LadderKit
import SposureKit

/// What the ladder rules and a new round need of the history, read a line at
/// a time (``HistoryFile/scan(passes:_:)``): the rounds of some ladders as the
/// rules see them (a few dozen bytes each, not whole history entries) and the
/// longest exposure. Scoring a round or planning one no longer holds the
/// whole history in memory.
public struct LadderHistory: Sendable {
    /// The rounds of each ladder asked for, oldest first.
    public var rounds: [String: [LadderRound]] = [:]
    /// The longest exposure of any round, nil for an empty history.
    public var bestExposedMs: Int?
    /// Lines skipped, each as `path:LINE: why`.
    public var problems: [String] = []

    /// Nothing played yet.
    public init() {}

    /// The history of `file` for `ladders`; a missing file is an empty history.
    public init(file: HistoryFile, ladders: Set<String>) throws(FileError) {
        var rounds = Dictionary(uniqueKeysWithValues: ladders.map { ($0, [LadderRound]()) })
        var best: Int?
        let contents = try file.scan { (_: Int, entry: HistoryEntry) -> Void in
            best = max(best ?? entry.exposedMs, entry.exposedMs)
            if let name = entry.ladder?.ladder, rounds[name] != nil, let round = entry.ladderRound {
                rounds[name]?.append(round)
            }
        }
        self.rounds = rounds.mapValues(LadderStanding.oldestFirst)
        bestExposedMs = best
        problems = contents.problems
    }

    /// The history of `entries` (all in memory) for `ladders`.
    public init(entries: [HistoryEntry], ladders: Set<String>) {
        for name in ladders { rounds[name] = LadderStanding.rounds(of: name, in: entries) }
        bestExposedMs = entries.map(\.exposedMs).max()
    }

    /// The rounds of `ladder`, oldest first.
    public func rounds(of ladder: String) -> [LadderRound] { rounds[ladder] ?? [] }

    /// Takes a round just played (kept in order: it is the latest, or placed by its date).
    public mutating func add(_ entry: HistoryEntry) {
        bestExposedMs = max(bestExposedMs ?? entry.exposedMs, entry.exposedMs)
        guard let name = entry.ladder?.ladder, let round = entry.ladderRound, rounds[name] != nil else { return }
        rounds[name] = LadderStanding.oldestFirst(rounds[name, default: []] + [round])
    }
}
