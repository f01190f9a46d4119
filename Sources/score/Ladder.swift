import ArgumentParser
import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import ScoreKit
import SposureCLI
import SposureKit

extension Score {
    /// `score ladder`: the ladders, one as a table, and a copy of one to edit.
    struct LadderCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ladder",
            abstract: "Show a fear ladder and where you stand on it; --copy makes your own copy to edit.",
            discussion: """
                Without NAME: the ladders there are (built-in, and your own in \
                $SPOSURE_CONFIG/ladders, else $XDG_CONFIG_HOME/sposure/ladders, else \
                ~/.config/sposure/ladders).

                With NAME: the ladder as a table, one row a rung: what it shows, the expected \
                SUDS (0–100), rounds played on it, the best exposure, the last distress after \
                a round (0–10), when it was mastered and when its re-test is due; ▶ marks the \
                rung the next `giphy-pages plan --ladder NAME` plays (a due re-test first). \
                Text on a terminal, else one JSON "ladder" record; --format overrides. The \
                rules are in docs/ladders.md.

                --copy writes the built-in ladder to your folder (NAME.json) and prints its \
                path; your copy then replaces the built-in everywhere. A bad ladder file is \
                one message naming the file, the field and what is wrong, and exit 64.

                Examples:
                  score ladder
                  score ladder spiders
                  score ladder spiders --copy && $EDITOR ~/.config/sposure/ladders/spiders.json
                """)

        @ParentCommand var score: Score

        @OptionGroup var ladder: LadderArguments

        mutating func validate() throws {
            try score.validateNow()
            if ladder.copy && ladder.name == nil { throw ValidationError("--copy needs a ladder's name.") }
            if ladder.replace && !ladder.copy { throw ValidationError("--replace goes with --copy.") }
            try score.refuseRoundOptions(in: "score ladder")
        }

        func run() throws {
            let stage = Stage(name: "score ladder", options: StageOptions(quiet: score.history.quiet))
            stage.start(reading: false)
            let library = LadderLibrary()
            let format = score.format ?? (isatty(1) == 1 ? .text : .json)
            guard let name = ladder.name else {
                let list = LadderList(library: library)
                switch format {
                case .json: stage.output.push(list.record().serialized())
                case .text: stage.output.push(contentsOf: list.lines().map { Array($0.utf8) })
                }
                throw ExitCode(stage.drain(failed: false))
            }
            if ladder.copy {
                do {
                    let path = try library.copy(name, replace: ladder.replace)
                    stage.output.push(Array(path.utf8))
                    throw ExitCode(stage.drain(failed: false))
                } catch let error as LadderLibrary.CopyError {
                    stage.diagnostics.error(error.description)
                    let status = stage.drain(failed: true)
                    throw ExitCode(error.isUsage ? 64 : status)
                }
            }
            let found: (ladder: Ladder, source: LadderLibrary.Source)
            do {
                found = try library.load(name)
            } catch {
                stage.diagnostics.error(error.description)
                _ = stage.drain(failed: true)
                throw ExitCode(64)
            }
            let history = HistoryFile.named(score.history.historyFile)
            let contents: LadderHistory
            do {
                contents = try LadderHistory(file: history, ladders: [found.ladder.name])
            } catch {
                stage.diagnostics.error("\(error)")
                _ = stage.drain(failed: true)
                throw ExitCode(2)
            }
            for problem in contents.problems { stage.diagnostics.warning(problem) }
            let now = score.history.now.flatMap(Timestamp.date) ?? Date()
            let source: String
            switch found.source {
            case .builtIn: source = "built-in"
            case .file(let path): source = path
            }
            let table = LadderTable(ladder: found.ladder, source: source, rounds: contents.rounds(of: found.ladder.name), now: now)
            switch format {
            case .json: stage.output.push(table.record().serialized())
            case .text: stage.output.push(contentsOf: table.lines(style: TextStyle.forOutput()).map { Array($0.utf8) })
            }
            throw ExitCode(stage.drain(failed: false))
        }
    }
}
