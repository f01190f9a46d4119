import ArgumentParser

/// The history a command reads or keeps, the moment it is seen from, and
/// quiet (`@OptionGroup`): `score` takes them for itself and its
/// subcommands; `sposure history` and `sposure ladder` take the same and pass
/// them on to it.
public struct HistoryOptions: ParsableArguments, Sendable {
    /// The history file; nil: the default one.
    @Option(help: ArgumentHelp("The history file (default: $SPOSURE_DATA/history.ndjson, else $XDG_DATA_HOME/sposure/…, else ~/.local/share/sposure/…).", valueName: "file"))
    public var historyFile: String?

    /// The time the ladder rules and the statistics see; nil: now.
    @Option(help: ArgumentHelp("The time the ladder rules and the statistics see (re-tests due, today, this week), and the date of a round that has none, as 2026-11-21T10:00:00Z (default: now).", valueName: "time"))
    public var now: String?

    /// No warnings.
    @Flag(help: "No warnings on stderr (bad input lines, skipped history lines); errors still print.")
    public var quiet = false

    /// None given.
    public init() {}

    /// The options as `score` takes them.
    public var arguments: [String] {
        (now.map { ["--now", $0] } ?? []) + (historyFile.map { ["--history-file", $0] } ?? []) + (quiet ? ["--quiet"] : [])
    }
}
