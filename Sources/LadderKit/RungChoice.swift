import FoundationEssentials

/// The rung a round of a ladder plays: `--rung` when given, else where its
/// rounds put the ladder by its rules (a due re-test first). A pure choice
/// over the rounds; `giphy-pages plan --ladder` and `sposure play` ask it
/// through HistoryKit's ``choose(ladder:rung:now:library:history:)``, which
/// reads the history, so no stage before `score` reads it by hand.
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

    /// The rung of `ladder` (loaded from `file`, nil for a built-in) to
    /// play at `now`: `rung` when given, else the rules' pick over `rounds`
    /// (the ladder's, oldest first). `warnings` are carried into the choice.
    public static func choose(_ ladder: Ladder, file: String? = nil, rounds: [LadderRound], rung: Int? = nil,
                              now: Date, warnings: [String] = []) throws(Failure) -> RungChoice {
        let progress = LadderStanding.progress(ladder, rounds: rounds)
        let pick = rung.map { LadderProgress.Pick(rung: $0, retest: false, why: "--rung") }
            ?? progress.next(now: now, rules: ladder.rules)
        guard let chosen = ladder.rung(pick.rung) else {
            throw Failure(description: "--rung \(pick.rung): the ladder \(ladder.name) has \(ladder.rungs.count) rungs")
        }
        return RungChoice(ladder: ladder, file: file, pick: pick, rung: chosen, mastered: progress.masteredOn.keys.sorted(),
                          warnings: warnings)
    }
}
