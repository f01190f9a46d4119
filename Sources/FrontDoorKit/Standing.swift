import FoundationEssentials
import Glibc
import GiphyKit
import HistoryKit
import LadderKit
import ScoreKit
import SposureKit

/// Where a person is, for `sposure` with no arguments: each ladder in
/// progress (its rung, the rung's first query, the re-tests due, the last
/// round's distress), today's rounds and exposure, the streak, the keys and
/// the calls left of each allowance, and the one command to type next.
///
/// Read from the history (one pass, a line at a time), the ladders, the call
/// budgets in the data folder and the environment; nothing is written.
public struct Standing: Sendable {
    /// One ladder with rounds in the history.
    public struct LadderLine: Sendable {
        /// The ladder's name and title.
        public var name: String
        public var title: String
        /// The rung the ladder stands on, and how many it has.
        public var rung: Int
        public var rungs: Int
        /// Whether the top rung is mastered.
        public var complete: Bool
        /// What the next round plays (a due re-test first) and why.
        public var next: LadderProgress.Pick
        /// The first query of the next round's rung (or its folder's label).
        public var query: String
        /// Mastered rungs whose re-test is due, with when it fell due.
        public var due: [(rung: Int, due: Date)]
        /// Rounds played on the ladder.
        public var rounds: Int
        /// The last round's date and ratings (distress 0–10 before, peak, after).
        public var lastAt: String
        public var lastBefore: Int?
        public var lastPeak: Int?
        public var lastAfter: Int?
    }

    /// One API and its key.
    public struct KeyLine: Sendable {
        /// The API.
        public var provider: GIFProvider
        /// Whether its key is set.
        public var isSet: Bool
        /// Calls left of the allowance now; nil: no limit.
        public var callsLeft: Int?
        /// The allowance, "100/h".
        public var rate: String
        /// Seconds until a call is allowed again, when the allowance is spent.
        public var wait: Double
    }

    /// The ladders in progress, the one played last first.
    public var ladders: [LadderLine] = []
    /// Rounds and exposure today, and days in a row with a round.
    public var roundsToday = 0
    public var exposedMsToday = 0
    public var streakDays = 0
    /// Rounds in the whole history.
    public var rounds = 0
    /// Every API, in the order a key chooses them.
    public var keys: [KeyLine] = []
    /// The API a round uses: the first whose key is set.
    public var provider: GIFProvider?
    /// `TERM` and `COLORTERM`, as the environment says (`sposure doctor` asks the terminal).
    public var term: String
    public var colorterm: String
    /// Lines of the history skipped, or a history that could not be read.
    public var problems: [String] = []
    /// Whether the history could not be read at all.
    public var historyUnreadable = false

    /// The standing at `now`.
    public init(now: Date = Date(), environment: [String: String] = ProcessInfo.processInfo.environment,
                library: LadderLibrary = LadderLibrary(), history: HistoryFile = .named(nil)) {
        term = environment["TERM"] ?? ""
        colorterm = environment["COLORTERM"] ?? ""
        var practice = PracticeStats.Accumulator(now: now)
        var last: [String: HistoryEntry] = [:]
        var order: [String] = []
        var count = 0
        do {
            let contents = try history.scan { (_: Int, entry: HistoryEntry) -> Void in
                count += 1
                practice.add(entry)
                if let name = entry.ladder?.ladder {
                    if last[name] == nil { order.append(name) }
                    last[name] = entry
                }
            }
            problems = contents.problems
        } catch {
            problems.append("\(error)")
            historyUnreadable = true
        }
        rounds = count
        let stats = practice.stats
        roundsToday = stats.roundsToday
        exposedMsToday = stats.exposedMsToday
        streakDays = stats.streakDays

        let played = (try? LadderHistory(file: history, ladders: Set(order))) ?? LadderHistory()
        let latestFirst = order.sorted { (last[$0]?.at ?? "") > (last[$1]?.at ?? "") }
        for name in latestFirst {
            guard let ladder = try? library.load(name).ladder, let entry = last[name] else {
                problems.append("ladder \(name): played, but it cannot be loaded now (sposure ladder \(name) says why)")
                continue
            }
            let rounds = played.rounds(of: ladder.name)
            let progress = LadderStanding.progress(ladder, rounds: rounds)
            let next = progress.next(now: now, rules: ladder.rules)
            let rung = ladder.rung(next.rung)
            ladders.append(LadderLine(
                name: ladder.name, title: ladder.title, rung: progress.rung, rungs: ladder.rungs.count,
                complete: progress.complete, next: next, query: rung?.queries.first ?? rung?.label ?? "",
                due: progress.dueRetests(now: now, rules: ladder.rules), rounds: rounds.count,
                lastAt: entry.at, lastBefore: entry.sudsBefore, lastPeak: entry.ratings.peak, lastAfter: entry.sudsAfter))
        }

        let data = Folders.data(environment: environment)
        var folder = stat()
        let kept = stat(data, &folder) == 0 && (folder.st_mode & S_IFMT) == S_IFDIR
        provider = GIFProvider.chosen(environment: environment)
        for api in GIFProvider.keyed {
            let budget = CallBudget(provider: api, rate: nil, folder: kept ? data : nil)
            keys.append(KeyLine(provider: api, isSet: api.key(in: environment) != nil, callsLeft: budget.left(),
                                rate: budget.rateText, wait: budget.waitForNext()))
        }
    }

    /// The ladder a bare `sposure play` plays: the one played last that is
    /// not complete; nil when there is none.
    public var ladderInProgress: String? {
        ladders.first { !$0.complete }?.name
    }

    /// The one command to type next.
    public var nextCommand: String {
        // Not as if the person were new: their rounds are there, unread.
        if historyUnreadable { return "sposure doctor" }
        guard provider != nil else { return "sposure demo" }
        if let ladder = ladderInProgress { return "sposure play --ladder \(ladder)" }
        return "sposure play"
    }

    /// Why ``nextCommand``, in a few words.
    public var nextReason: String {
        if historyUnreadable { return "the history cannot be read: it says which folder and why" }
        guard let provider else {
            return "it plays offline; for the live game set a key (" + keys.map { $0.provider.keyVariable }.joined(separator: " or ") + ")"
        }
        if !provider.api.needsKey && ladders.isEmpty {
            return "choose a fear: \(provider.displayName)'s pictures need no key (a Giphy or Klipy key adds GIFs)"
        }
        if let line = ladders.first(where: { !$0.complete }) {
            return line.next.retest ? "a re-test of rung \(line.next.rung) is due" : "rung \(line.next.rung) of \(line.name) is next"
        }
        return ladders.isEmpty ? "choose a fear from the built-in ladders" : "every ladder played is complete: choose another"
    }
}
