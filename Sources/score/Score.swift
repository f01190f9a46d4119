import ArgumentParser
import SposureCLI
import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import ScoreKit
import SposureKit

/// `score`: the score reporter, the last stage of the game.
@main
struct Score: SposureTool {
    static let configuration = CommandConfiguration.tool("score",
        abstract: "Score a round from gif-play's events: the Game Over screen, and the round kept in your history.",
        usage: """
            score [--format text|json] [--share] [--distress BEFORE,AFTER] [--at TIME]
                  [--no-history | --history-file FILE] [--quiet] < events.ndjson
            score history [--format text|json] [--plot FILE.svg] [--last N] [--export csv] [--history-file FILE]
            score ladder [NAME [--copy [--replace]]] [--format text|json] [--now TIME]
            """,
        discussion: """
            … | gif-play | score

            Reads gif-play's event records on stdin (a live pipe or a saved stream) to \
            their end. A round runs from a "session" start to its end; a stream normally \
            holds one. The report: exposure (the time GIFs were on screen while you \
            held), the longest hold, holds, GIFs shown and watched to the end, stalls \
            (waiting for a GIF to load: not your fault, never counted against you), \
            error records by code, exposure by section, and points:

              points = exposed_ms / 100 + 5 × gifs_completed
                       (10 a second of exposure, 5 for each GIF watched to its end)

            A stream that ends without a session end (the player was killed) is still \
            scored, marked incomplete. Lines that are not JSON are reported on stderr \
            (score: stdin:N: …) and skipped; records of other kinds are ignored.

            Text on a terminal (coloured unless NO_COLOR is set), else one JSON "score" \
            record per round; --format overrides. Each round is appended to the history, \
            $SPOSURE_DATA/history.ndjson, else $XDG_DATA_HOME/sposure/history.ndjson, \
            else ~/.local/share/sposure/history.ndjson (one line a round, written whole \
            under a lock), and compared with it for a personal best. `score history` \
            shows the lifetime statistics. Beside the history it keeps the GIFs rated with \
            a digit and those marked off-topic with x (ratings.ndjson), and what each round \
            showed (seen.ndjson: the report says how many GIFs were new, not shown in the \
            last 5 rounds of the rung or query). With --no-history the round is neither \
            compared nor kept, and the same input always gives the same output.

            Examples:
              gif-play < images.ndjson | score --distress 7,4
              score --format json --no-history < events.ndjson
              score --share < events.ndjson
              score history --plot progress.svg

            \(exitCodes)
            """,
        subcommands: [History.self, LadderCommand.self])

    @Option(help: ArgumentHelp("The report for a person (text) or for programs (json); default: text on a terminal, else json.", valueName: "format"))
    var format: ReportFormat?

    @Flag(help: "Print one line to paste anywhere instead of the report (\"Held on 2m 14s through 23 GIFs of spiders — personal best\").")
    var share = false

    @OptionGroup var roundHistory: RoundHistoryOptions

    @Option(help: ArgumentHelp("The round's date when the stream has none (a virtual clock), as 2026-11-21T10:00:00Z (default: now, in the history only).", valueName: "time"))
    var at: String?

    // --history-file, --now and --quiet: `score history` and `score ladder`
    // read them here (ArgumentParser gives an option the parent declares to
    // the parent, wherever it stands).
    @OptionGroup var history: HistoryOptions

    @Option(help: ArgumentHelp("The longest input line read; a longer one is reported and skipped.", valueName: "size"))
    var maxLine = ByteCount(1 << 20)

    mutating func validate() throws {
        if let distress = roundHistory.distress {
            do { _ = try Distress.parse(distress) } catch { throw ValidationError(error.description) }
        }
        if let at, Timestamp.normalize(at) == nil {
            throw ValidationError("--at \(at): give a date and time such as 2026-11-21T10:00:00Z.")
        }
        // --now is checked by the command that runs (here in run(), in
        // score ladder and score history in theirs), so a bad one prints that
        // command's usage, not the top level's.
        if roundHistory.noHistory && history.historyFile != nil { throw ValidationError("--no-history and --history-file go apart.") }
        guard maxLine.bytes >= 64 else { throw ValidationError("--max-line must be at least 64 bytes.") }
    }

    /// Refuses a `--now` that is no time (a usage error of the command that runs).
    func validateNow() throws {
        if let now = history.now, Timestamp.normalize(now) == nil {
            throw ValidationError("--now \(now): give a date and time such as 2026-11-21T10:00:00Z.")
        }
    }

    /// Refuses the options of a round's report (`--share`, `--distress`,
    /// `--at`, `--no-history`) in `command`, which reads no round.
    func refuseRoundOptions(in command: String) throws {
        let roundOnly = [("--share", share), ("--distress", roundHistory.distress != nil), ("--at", at != nil), ("--no-history", roundHistory.noHistory)]
        for (option, given) in roundOnly where given {
            throw ValidationError("\(option) goes with score, not \(command).")
        }
    }

    func run() throws {
        try validateNow()
        // Bad lines are never fatal here, so no --strict: the options are made, not parsed.
        let options = StageOptions(quiet: history.quiet, maxLine: maxLine)
        let stage = Stage(name: "score", options: options)

        var configuration = ReportConfiguration()
        configuration.format = format ?? (isatty(1) == 1 ? .text : .json)
        configuration.style = TextStyle.forOutput()
        configuration.share = share
        configuration.history = roundHistory.noHistory ? nil : HistoryFile.named(history.historyFile)
        configuration.distress = roundHistory.distress.flatMap { try? Distress.parse($0) }
        configuration.at = at.flatMap(Timestamp.normalize)
        if let now = history.now.flatMap(Timestamp.normalize) { configuration.now = now }
        // GIFs rated with a digit key or marked off-topic, and the GIFs each round showed, are kept beside the history.
        if let history = configuration.history {
            configuration.ratings = GIFRatingFile.beside(history)
            let diagnostics = stage.diagnostics
            configuration.seen = SeenFile(path: DataStore(holding: history.path).seen, warn: { diagnostics.warning($0) })
        }

        let reporter = RoundReporter(stage: stage, configuration: configuration)
        // A signal lets the round being played upstream end before scoring.
        stage.signals = SignalPolicy(onEnd: { reporter.interrupt($0) })
        stage.start()
        throw ExitCode(reporter.run())
    }
}

extension ReportFormat: ExpressibleByArgument {}

/// The exit codes of `score`, for its help (`score history` has its own).
let exitCodes = """
    Exit status:
      0    a round was scored (an incomplete one, or one with bad lines, too)
      1    the input held no round at all
      2    the history could not be read or written, or stdin could not be read
           (the report is still printed)
      64   usage error
      130  interrupted (SIGINT), 143 terminated (SIGTERM): the round read so far
           is still scored and kept
    A closed stdout (`| head`) is a normal end: exit 0, nothing on stderr.
    """
