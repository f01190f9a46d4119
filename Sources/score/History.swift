import ArgumentParser
import SposureCLI
import FoundationEssentials
import Glibc
import HistoryKit
import ScoreKit
import SposureKit

extension Score {
    /// `score history`: lifetime statistics and the chart.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your lifetime statistics: rounds, exposure, best, trend, distress; --plot draws them.",
            usage: """
                score history [--format text|json] [--last N] [--plot FILE.svg] [--export csv]
                              [--history-file FILE] [--now TIME] [--quiet]
                """,
            discussion: """
                Reads the history that `score` keeps ($SPOSURE_DATA/history.ndjson, else \
                $XDG_DATA_HOME/sposure/history.ndjson, else ~/.local/share/sposure/history.ndjson); \
                stdin is not read. On a terminal: rounds, total and average exposure, the best \
                round, the trend (the mean of the last 5 rounds against the 5 before), a \
                sparkline of exposure per round, and the distress ratings before and after, \
                with how the rating before a round falls. Otherwise one JSON "history" record. \
                Once there are ladder rounds (or with --now): today's rounds, the streak of \
                days practised, days this week against 3–5, distress per rung, and the feared \
                outcome expected against how often it happened.

                Options (these, and --last, --plot and --export below):
                  --format text|json   the statistics for a person or for programs
                                       (default: text on a terminal, else json)
                  --history-file FILE  another history than the default
                  --now TIME           the moment today and this week are counted from,
                                       as 2026-11-21T10:00:00Z (default: now)
                  --quiet              no warnings about skipped history lines

                --plot writes an SVG chart a browser opens: exposure per round (the best \
                ringed) above, distress before and after below, dated; on a ladder, the rung \
                as a step line beside exposure and the peak distress. A long history is \
                thinned to the chart's pixel columns (the file stays under 1 MB). A file \
                is replaced whole (through a link, to the file it names); --plot /dev/stdout \
                writes the chart into the pipe, before the report.

                --export csv writes one row per round instead of the statistics (date, \
                ladder, rung, exposure, ratings, …), for a therapist.

                Examples:
                  score history
                  score history --last 20 --plot progress.svg
                  score history --format json | jq .trend
                  score history --export csv > rounds.csv

                \(historyExitCodes)
                """)

        // --format, --history-file and --quiet are the parent's: ArgumentParser
        // gives an option the parent declares to the parent, wherever it stands.
        @ParentCommand var score: Score

        @OptionGroup var view: HistoryViewOptions

        @Option(help: ArgumentHelp("Write the rounds instead of the statistics: csv, one row per round (date, ladder, rung, exposure, ratings, …), for a therapist.", valueName: "format"))
        var export: String?

        mutating func validate() throws {
            try score.validateNow()
            try score.refuseRoundOptions(in: "score history")
            if let last = view.last, last < 1 { throw ValidationError("--last must be at least 1.") }
            if let plot = view.plot, plot.isEmpty { throw ValidationError("--plot needs a file name.") }
            if let plot = view.plot {
                // The chart written over the history would lose every round.
                var chart = stat(), history = stat()
                if stat(plot, &chart) == 0, stat(score.history.historyFile ?? HistoryFile.defaultPath(), &history) == 0,
                   chart.st_dev == history.st_dev && chart.st_ino == history.st_ino {
                    throw ValidationError("--plot \(plot) is the history itself; name another file.")
                }
            }
            if let export, export != "csv" { throw ValidationError("--export \(export): the format is csv.") }
        }

        func run() throws {
            let options = StageOptions(quiet: score.history.quiet)
            let stage = Stage(name: "score history", options: options)
            var configuration = LifetimeConfiguration()
            configuration.format = score.format ?? (isatty(1) == 1 ? .text : .json)
            configuration.style = TextStyle.forOutput()
            configuration.history = HistoryFile.named(score.history.historyFile)
            configuration.last = view.last
            configuration.plotPath = view.plot
            configuration.exportCSV = export == "csv"
            configuration.now = score.history.now.flatMap(Timestamp.date)
            stage.start(reading: false)
            throw ExitCode(LifetimeReporter.run(stage: stage, configuration: configuration))
        }
    }
}

/// The exit codes of `score history`, for its help.
let historyExitCodes = """
    Exit status:
      0    the statistics (or the CSV) were written, an empty history's too
      2    the history could not be read, or --plot could not be written
           (the statistics are still written)
      64   usage error (an option of a round's report, which only score takes)
      130  interrupted (SIGINT), 143 terminated (SIGTERM)
    A closed stdout (`| head`) is a normal end: exit 0, nothing on stderr.
    """
