import ArgumentParser
import ScoreKit

/// `sposure ladder`: `score ladder`, under the front door.
struct LadderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ladder",
        abstract: "Show a fear ladder and where you stand on it (score ladder).",
        discussion: """
            The same as `score ladder`, with the same options and output. Without NAME: \
            the ladders there are (built-in, and your own in ~/.config/sposure/ladders). \
            With NAME: one row a rung (what it shows, the expected SUDS, your rounds on \
            it, the best exposure, the last distress, when it was mastered and when its \
            re-test is due); ▶ marks the rung the next round plays. --copy writes your own \
            copy to edit, which then replaces the built-in everywhere.

            --format text|json (sposure's own option) chooses text or JSON, as it does for score.

            Examples:
              sposure ladder
              sposure ladder spiders
              sposure ladder spiders --copy
            """)

    @Argument(help: ArgumentHelp("The ladder (spiders, snakes, dogs, insects, heights, flying, needles, blood, clowns, deep-water, or your own).", valueName: "name"))
    var name: String?

    @Flag(help: "Write the built-in ladder NAME to your ladders folder for editing, and print the path.")
    var copy = false

    @Flag(help: "With --copy: replace your existing copy.")
    var replace = false

    // --format is sposure's own: ArgumentParser gives an option the parent
    // declares to the parent, wherever it stands.
    @ParentCommand var sposure: Sposure

    @Option(help: ArgumentHelp("The time the rules see, as 2026-11-21T10:00:00Z (default: now).", valueName: "time"))
    var now: String?

    @Option(help: ArgumentHelp("Another history than the default.", valueName: "file"))
    var historyFile: String?

    @Flag(help: "No warnings about skipped history lines.")
    var quiet = false

    func run() throws {
        var arguments = ["ladder"]
        if let name { arguments.append(name) }
        if copy { arguments.append("--copy") }
        if replace { arguments.append("--replace") }
        if let format = sposure.format { arguments += ["--format", format.rawValue] }
        if let now { arguments += ["--now", now] }
        if let historyFile { arguments += ["--history-file", historyFile] }
        if quiet { arguments.append("--quiet") }
        try execScore(arguments)
    }
}
