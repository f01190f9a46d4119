import ArgumentParser

/// Which fear ladder a round plays, and which of its rungs (`@OptionGroup`):
/// `giphy-pages plan` plans it; `sposure play` and `sposure record` pass it on
/// to plan. Which of them may go without `--ladder` is each command's rule.
public struct LadderChoice: ParsableArguments, Sendable {
    /// The ladder's name.
    @Option(help: ArgumentHelp("A fear ladder (spiders, snakes, dogs, …, or your own; docs/ladders.md): the round is its current rung's queries, a due re-test first, tagged with the ladder and rung.", valueName: "name"))
    public var ladder: String?

    /// The rung, from 1; nil: the history's rules choose.
    // Unconditional: `--rung -1` is a rung out of range, not a missing value followed by an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("On a ladder: this rung (from 1), whatever the history says.", valueName: "n"))
    public var rung: Int?

    /// Pages of mastered rungs woven in.
    @Flag(help: "On a ladder: weave in pages of rungs already mastered, about one in four (variability).")
    public var mix = false

    /// None given.
    public init() {}

    public func validate() throws {
        if let rung, rung < 1 { throw ValidationError("--rung must be at least 1.") }
    }
}
