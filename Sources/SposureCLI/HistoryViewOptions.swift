import ArgumentParser

/// What `score history` shows of the history: the latest rounds, and the
/// chart (`@OptionGroup`); `sposure history` takes the same and passes them on.
public struct HistoryViewOptions: ParsableArguments, Sendable {
    /// The SVG chart to write.
    @Option(help: ArgumentHelp("Also write an SVG chart of exposure and distress per round to FILE.", valueName: "file"))
    public var plot: String?

    /// Only the latest rounds.
    @Option(help: ArgumentHelp("Only the latest N rounds.", valueName: "n"))
    public var last: Int?

    /// None given.
    public init() {}

    /// The options as `score history` takes them.
    public var arguments: [String] {
        (plot.map { ["--plot", $0] } ?? []) + (last.map { ["--last", String($0)] } ?? [])
    }
}
