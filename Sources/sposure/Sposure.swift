import ArgumentParser
import FoundationEssentials
import FrontDoorKit
import Glibc
import ScoreKit
import SposureCLI
import SposureKit

/// `sposure`: the front door, for a person rather than a script. With no
/// subcommand: where you are. Its subcommands wire the same five stages the
/// scripts in pipelines/ run (those call these).
@main
struct Sposure: ParsableCommand {
    static func main() { mainIgnoringClosedPipes() }

    static let configuration = CommandConfiguration(
        commandName: "sposure",
        abstract: "Exposure practice with GIFs: where you are, and the one command to play next.",
        discussion: """
            Sposure is a self-help practice tool: you hold a button to watch GIFs of \
            something you fear, one small step (a rung of a ladder) at a time, and \
            letting go ends the round. It is five small tools over pipes \
            (giphy-pages plan | giphy-pages list | fetch-images | gif-play | score); \
            sposure runs them for you.

            With no subcommand, on a terminal: each ladder in progress (its rung, the \
            rung's first query, the re-tests due, the last round's distress), today's \
            rounds and exposure, your streak, which key is set and the calls left of its \
            allowance, and the one command to type next. Into a pipe: the same as one \
            JSON "status" record.

            Start here:
              sposure demo          the offline demo: no key, no network
              sposure doctor        is everything in order for a round?
              sposure play          the ladder in progress, or choose a fear
              sposure play spiders  a round on any query

            Where things live: the history in $SPOSURE_DATA (else \
            $XDG_DATA_HOME/sposure, else ~/.local/share/sposure), GIFs in $SPOSURE_CACHE \
            (else ~/.cache/sposure), your own ladders in $SPOSURE_CONFIG/ladders (else \
            ~/.config/sposure/ladders). The stages are found in $SPOSURE_BIN, else beside \
            sposure, else on PATH.

            Exit status: 0 shown; 2 the history could not be read (the rest is still shown); 64 usage.
            """,
        version: SposureVersion.text,
        subcommands: [PlayCommand.self, DemoCommand.self, LadderCommand.self, HistoryCommand.self,
                      DoctorCommand.self, RecordCommand.self, ReplayCommand.self])

    @Option(help: ArgumentHelp("For a person (text) or for programs (json); default: text on a terminal, else json.", valueName: "format"))
    var format: ReportFormat?

    func run() throws {
        let standing = Standing()
        let chosen = format ?? (isatty(1) == 1 ? .text : .json)
        switch chosen {
        case .json:
            print(standing.record().text)
        case .text:
            for line in standing.lines(style: TextStyle.forOutput(), width: WordWrap.terminalColumns(1)) { print(line) }
        }
        if standing.historyUnreadable {
            // Said on stderr for a program too (the text screen says it already).
            if chosen == .json { Diagnostics(tool: "sposure").error(standing.problems.first ?? "the history cannot be read") }
            throw ExitCode(2)
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}

/// Runs a round command's body: a ``RoundFailure`` is said as `sposure NAME: …`
/// and becomes the exit status.
func runRound(_ name: String, _ body: (RoundRunner) throws(RoundFailure) -> Int32) throws {
    let runner = RoundRunner(tool: "sposure " + name)
    do {
        throw ExitCode(try body(runner))
    } catch let failure as RoundFailure {
        runner.diagnostics.error(failure.description)
        throw ExitCode(failure.status)
    }
}

/// Replaces sposure with `score SUBCOMMAND ARGUMENTS`, followed by the
/// options every alias passes on (`format` is sposure's own --format): the
/// aliases are the very command, its output, messages and exit status.
func execScore(_ arguments: [String], format: ReportFormat?, history: HistoryOptions) throws -> Never {
    let arguments = arguments + (format.map { ["--format", $0.rawValue] } ?? []) + history.arguments
    let diagnostics = Diagnostics(tool: "sposure")
    let score: String
    do { score = try ToolFinder().path(of: "score") } catch {
        diagnostics.error(error.description)
        throw ExitCode.failure
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([score] + arguments).map { strdup($0) } + [nil]
    execv(score, argv)
    diagnostics.error("cannot run \(score): \(String(cString: strerror(errno)))")
    throw ExitCode.failure
}
