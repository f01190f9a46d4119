import FoundationEssentials
import LadderKit
import SposureKit

/// The rung a round of a ladder plays, chosen in one call: `--rung` when
/// given, else where the history puts the ladder by its rules (a due re-test
/// first). `giphy-pages plan --ladder` and `sposure play` ask it; the history
/// is read here, so no stage before `score` reads it by hand.
public struct RungChoice: Sendable {
    /// The ladder (the person's copy, else the built-in).
    public var ladder: Ladder
    /// The ladder's file, nil for a built-in: a rung's `dir` is read from
    /// beside it, and its problems name it.
    public var file: String?
    /// The rung, whether it is a re-test, and why.
    public var pick: LadderProgress.Pick
    /// The rung chosen.
    public var rung: Rung
    /// The rungs mastered so far (for `--mix`), lowest first.
    public var mastered: [Int]
    /// What went wrong in the history without stopping the choice (lines
    /// skipped, a history that cannot be read: then as if nothing was played).
    public var warnings: [String]

    /// Why no rung could be chosen: a ladder that cannot be loaded, or a
    /// `--rung` past its top. Both are the caller's usage (exit 64).
    public struct Failure: Error, CustomStringConvertible, Sendable, Equatable {
        /// What to say.
        public var description: String

        /// A failure that says `description`.
        public init(description: String) { self.description = description }
    }

    /// "spiders: rung 3 of 10 (a spider in a jar, SUDS 40), a re-test: why".
    public var summary: String {
        "\(ladder.name): rung \(pick.rung) of \(ladder.rungs.count) (\(rung.label), SUDS \(rung.suds))\(pick.retest ? ", a re-test" : ""): \(pick.why)"
    }

    /// The rung of the ladder `name` to play at `now`: `rung` when given,
    /// else the rules' pick over the rounds in `history`.
    public static func choose(ladder name: String, rung: Int? = nil, now: Date = Date(),
                              library: LadderLibrary = LadderLibrary(),
                              history: HistoryFile = .named(nil)) throws(Failure) -> RungChoice {
        let found: Ladder
        var file: String?
        do {
            let loaded = try library.load(name)
            found = loaded.ladder
            if case .file(let path) = loaded.source { file = path }
        } catch {
            throw Failure(description: error.description)
        }
        var warnings: [String] = []
        var played = LadderHistory()
        do {
            played = try LadderHistory(file: history, ladders: [found.name])
        } catch {
            warnings.append("\(error); planning as if no round was played")
        }
        let progress = LadderStanding.progress(found, rounds: played.rounds(of: found.name))
        let pick = rung.map { LadderProgress.Pick(rung: $0, retest: false, why: "--rung") }
            ?? progress.next(now: now, rules: found.rules)
        guard let chosen = found.rung(pick.rung) else {
            throw Failure(description: "--rung \(pick.rung): the ladder \(found.name) has \(found.rungs.count) rungs")
        }
        return RungChoice(ladder: found, file: file, pick: pick, rung: chosen, mastered: progress.masteredOn.keys.sorted(), warnings: warnings)
    }
}
