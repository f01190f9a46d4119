import ArgumentParser
import ScoreKit
import SposureCLI

/// `sposure history`: `score history`, under the front door.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show your lifetime statistics; --plot draws them, --export csv lists the rounds (score history).",
        discussion: """
            The same as `score history`, with the same options and output: rounds, total \
            and average exposure, the best round, the trend, a sparkline, distress before \
            and after; on a ladder, today's rounds, the streak and distress per rung.

            --format text|json (sposure's own option) chooses text or JSON, as it does for score.

            Examples:
              sposure history
              sposure history --last 20 --plot progress.svg
              sposure history --export csv > rounds.csv     (for a therapist)
            """)

    @OptionGroup var view: HistoryViewOptions

    @Option(help: ArgumentHelp("Write the rounds instead of the statistics: csv, one row per round.", valueName: "format"))
    var export: String?

    // --format is sposure's own: ArgumentParser gives an option the parent
    // declares to the parent, wherever it stands.
    @ParentCommand var sposure: Sposure

    @OptionGroup var history: HistoryOptions

    func run() throws {
        var arguments = ["history"] + view.arguments
        if let export { arguments += ["--export", export] }
        try execScore(arguments, format: sposure.format, history: history)
    }
}
