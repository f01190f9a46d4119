import ArgumentParser
import ScoreKit
import SposureCLI

/// `sposure ladder`: `score ladder`, under the front door.
struct LadderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ladder",
        abstract: "Show a fear ladder and where you stand on it (score ladder).",
        discussion: """
            The same as `score ladder`, with the same options and output. Without NAME: \
            the ladders there are (built-in, and your own in ~/.config/sposure/ladders), \
            each with where you stand on it (its rung, your rounds, the next round's rung; \
            or not started, and the command to start it). \
            With NAME: one row a rung (what it shows, the expected SUDS: the distress it \
            is expected to bring, 0–100, where your 0–10 ratings are tenths; your rounds on \
            it, the best exposure, the last distress, when it was mastered and when its \
            re-test is due); ▶ marks the rung the next round plays. --copy writes your own \
            copy to edit, which then replaces the built-in everywhere.

            --format text|json (sposure's own option) chooses text or JSON, as it does for score.

            Examples:
              sposure ladder
              sposure ladder spiders
              sposure ladder spiders --copy
            """)

    @OptionGroup var ladder: LadderArguments

    // --format is sposure's own: ArgumentParser gives an option the parent
    // declares to the parent, wherever it stands.
    @ParentCommand var sposure: Sposure

    @OptionGroup var history: HistoryOptions

    func run() throws {
        try execScore(["ladder"] + ladder.arguments, format: sposure.format, history: history)
    }
}
