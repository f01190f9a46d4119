import ArgumentParser

/// What a person says of a round for the history, or that it stays out of it
/// (`@OptionGroup`): `score` takes them, and `sposure play` passes them on to it.
public struct RoundHistoryOptions: ParsableArguments, Sendable {
    /// Distress before and after, as given (`7,4`); score parses it.
    @Option(help: ArgumentHelp("How anxious you felt before and after the round, 0 (calm) to 10, kept with the round in the history: --distress 7,4.", valueName: "before,after"))
    public var distress: String?

    /// Keep the round out of the history.
    @Flag(help: "Neither compare the round with the history nor keep it there.")
    public var noHistory = false

    /// None given.
    public init() {}
}
