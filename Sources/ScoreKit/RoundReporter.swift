import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import SposureKit

//  `score`: the score reporter.
//
//  stdin ──Stage reader──▶ [input queue] ──▶ run(): RoundScorer ──▶ rounds
//                                                 │
//                       history file ◀── append ──┤ (read first, for the personal best)
//                                                 ▼
//  stdout ◀──Stage writer── [output queue] ◀── score records, or the Game Over screen
//
//  SIGINT/SIGTERM ──trap thread──▶ interrupt(): give the player upstream a
//  moment to write its session end, then close the input queue, so the round
//  it was playing is still scored (and kept) before the exit with 128 + signal.

/// Reads a stage's input to its end, scores the rounds, keeps them in the
/// history and writes the report.
public final class RoundReporter: @unchecked Sendable {
    private let stage: Stage
    private let configuration: ReportConfiguration
    private let lock = Lock()
    private var signal: Int32?

    /// A reporter over `stage` (started by the caller).
    public init(stage: Stage, configuration: ReportConfiguration) {
        self.stage = stage
        self.configuration = configuration
    }

    /// Called on the signal thread: waits `grace` seconds for the input to end,
    /// then ends it, so what was read is scored.
    public func interrupt(_ signal: Int32) {
        lock.lock()
        self.signal = signal
        lock.unlock()
        let input = stage.input
        let grace = configuration.grace
        Threads.start("grace") {
            Threads.sleep(grace)
            input.close()
        }
    }

    private var keepingFailed = false

    /// Where a ladder round leaves its ladder; nil (and a warning) when the ladder cannot be read.
    private func ladderOutcome(_ round: Round, entry: HistoryEntry, earlier: LadderHistory) -> LadderOutcome? {
        guard let tag = round.ladder else { return nil }
        do {
            let ladder = try configuration.ladders.load(tag.ladder).ladder
            let now = Timestamp.date(configuration.now) ?? Date()
            return LadderStanding.outcome(ladder, earlier: earlier.rounds(of: tag.ladder), entry: entry, now: now)
        } catch {
            // The error names the ladder's file, or the ladder (a name that cannot be one).
            stage.diagnostics.warning("\(error.description); the round is kept without its next rung")
            return nil
        }
    }

    /// Appends the GIFs rated during `round` to the ratings file, with its ladder and rung.
    private func keepRatings(_ round: Round, at: String) {
        guard let file = configuration.ratings, !round.gifRatings.isEmpty else { return }
        let ratings = round.gifRatings.map { $0.filed(ladder: round.ladder?.ladder, rung: round.ladder?.rung, at: at) }
        keep { () throws(GIFRatingFile.Failure) in try file.append(ratings) }
    }

    /// Runs `append`; a failure is said, and the exit status will say it too.
    private func keep(_ append: () throws(GIFRatingFile.Failure) -> Void) {
        do {
            try append()
        } catch {
            stage.diagnostics.error(error.description)
            keepingFailed = true
        }
    }

    /// Appends the GIFs marked off-topic during `round` beside the ratings,
    /// with its query, ladder, rung and date.
    private func keepMarks(_ round: Round, at: String) {
        guard let file = configuration.ratings, !round.offTopic.isEmpty else { return }
        let marks = round.offTopic.map { mark in
            var kept = mark.filed(ladder: round.ladder?.ladder, rung: round.ladder?.rung, at: at)
            kept.query = mark.query ?? round.query
            return kept
        }
        keep { () throws(GIFRatingFile.Failure) in try file.append(marks: marks) }
    }

    /// How many of the GIFs `round` showed the last rounds of its rung (or
    /// query) did not (read before this round is kept); nil when the seen
    /// file is not kept or cannot be read.
    private func newGIFs(_ round: Round) -> Int? {
        guard let file = configuration.seen else { return nil }
        do {
            let recent = RecentGIFs(try file.recent(query: round.query, ladder: round.ladder?.ladder, rung: round.ladder?.rung,
                                                    rounds: ScoredRound.recentRounds))
            return round.seen.filter { recent.age(provider: $0.provider, id: $0.id, hash: $0.hash, hashDCT: $0.hashDCT) == nil }.count
        } catch {
            stage.diagnostics.warning("\(error); the round's new GIFs are not counted")
            return nil
        }
    }

    /// Appends what `round` showed to the seen file, dated `at`. The file
    /// only orders later rounds (new GIFs first): one that cannot be written
    /// is a warning, and the round, scored and kept in the history, is no
    /// failure (issue 28 #9).
    private func keepSeen(_ round: Round, at: String) {
        guard let file = configuration.seen else { return }
        do {
            try file.append(SeenRound(at: at, query: round.query, ladder: round.ladder?.ladder, rung: round.ladder?.rung, gifs: round.seen))
        } catch {
            stage.diagnostics.warning("\(error); the GIFs this round showed are not kept as seen")
        }
    }

    /// What a history that cannot be read or written means for the rounds
    /// scored: they are reported, not kept (a saved stream scores them again).
    static func notKept(_ count: Int) -> String {
        (count == 1 ? "this round is" : "these \(count) rounds are") + " scored but not kept in the history"
    }

    /// Scores everything, writes the report and returns the exit status:
    /// 0 when a round was scored, 1 when the input held none, 2 when the
    /// history could not be read or written, 128 + signal after a signal.
    public func run() -> Int32 {
        var scorer = RoundScorer()
        while true {
            let batch = stage.input.popBatch(max: 256)
            if batch.isEmpty { break }
            for item in batch {
                switch item {
                case .record(let input):
                    if let warning = scorer.add(input.record) {
                        stage.diagnostics.warning("stdin:\(input.line): \(warning)")
                    }
                case .bad:
                    scorer.addBadLine()
                case .passThrough:
                    break  // score parses every kind (it sets no Stage.parsedKinds)
                }
            }
        }
        let rounds = scorer.finish()
        // A signal that has arrived counts even if the handler has not recorded it yet.
        let pending = SignalTrap.arrived()
        let interrupted: Int32? = lock.withLock { signal } ?? pending

        guard !rounds.isEmpty else {
            stage.diagnostics.error("no round to score: the input held no gif-play events (session, hold, shown, stall)")
            if let interrupted { stage.requestStop(.signal(interrupted)) }
            return stage.drain(failed: true)
        }

        var historyFailed = false
        var best: Int?
        var earlier = LadderHistory()
        var history = configuration.history
        if let file = history {
            do {
                // Read a line at a time: only the rounds of the ladders played now are kept.
                earlier = try LadderHistory(file: file, ladders: Set(rounds.compactMap { $0.ladder?.ladder }))
                for problem in earlier.problems { stage.diagnostics.warning(problem) }
                best = earlier.bestExposedMs
            } catch {
                stage.diagnostics.error("\(error); \(Self.notKept(rounds.count))")
                historyFailed = true
                history = nil
            }
        }

        var lines: [[UInt8]] = []
        for (index, round) in rounds.enumerated() {
            var scored = ScoredRound(round: round, distress: configuration.distress ?? round.ratings.distress)
            scored.at = round.at.flatMap(Timestamp.normalize) ?? configuration.at
            if history != nil && round.neverHeld {
                // Declining the notice or quitting before the first hold is not a round played:
                // kept, it would count in today's rounds and the streak, and move no ladder anyway.
                stage.diagnostics.note("the round never reached a hold: not kept in the history")
            } else if let file = history {
                scored.judge(against: best)
                best = max(best ?? 0, round.exposedMs)
                let entry = scored.historyEntry(fallbackAt: configuration.now)
                scored.ladderOutcome = ladderOutcome(round, entry: entry, earlier: earlier)
                earlier.add(entry)
                keepRatings(round, at: entry.at)
                keepMarks(round, at: entry.at)
                scored.newGIFs = newGIFs(round)
                keepSeen(round, at: entry.at)
                do {
                    let outcome = try file.append(entry)
                    if outcome.removedTornBytes > 0 {
                        stage.diagnostics.warning("\(file.path): removed a torn last line (\(outcome.removedTornBytes) bytes) before appending; kept in \(RecordLog.tornPath(of: file.path))")
                    }
                } catch {
                    stage.diagnostics.error("\(error); \(Self.notKept(rounds.count - index))")
                    historyFailed = true
                    history = nil
                }
            }
            if configuration.share {
                lines.append(Array(ShareLine.make(scored).utf8))
            } else {
                switch configuration.format {
                case .json:
                    lines.append(scored.scoreRecord().serialized())
                case .text:
                    if index > 0 { lines.append([]) }
                    lines += RoundScreen.lines(scored, style: configuration.style).map { Array($0.utf8) }
                }
            }
        }
        stage.output.push(contentsOf: lines)
        if keepingFailed { historyFailed = true }
        if let interrupted { stage.requestStop(.signal(interrupted)) }
        if historyFailed { stage.requestStop(.fatal) }
        return stage.drain(failed: false)
    }
}
