import ArgumentParser
import EventKit
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
                ~/.config/sposure/ladders); on a terminal each with where you stand on it: \
                its rung, your rounds and the next round's rung, or not started and the \
                command to start it (JSON: one "ladders" record, the names and their files).

                With NAME: the ladder as a table, one row a rung: what it shows, the expected \
                SUDS (subjective units of distress, 0–100: a rung of SUDS 40 is a 4 on your \
                0–10 ratings), rounds played on it, the best exposure, the last distress after \
                a round (0–10), when it was mastered and when its re-test is due; ▶ marks the \
                rung the next `giphy-pages plan --ladder NAME` plays (a due re-test first). \
                Text on a terminal, else one JSON "ladder" record; --format overrides. The \
                rules are in docs/ladders.md.

                Below the table: the GIFs you marked off-topic on this ladder (the x key in \
                gif-play; `giphy-pages list` never lists them again) and the words their titles \
                repeat (not the ladder's own, nor those it avoids already), so you can spot one \
                to avoid. The JSON record has them as "marks" (each mark's record) and \
                "mark_words" ({"word": titles holding it}).

                --copy writes the built-in ladder to your folder (NAME.json) and prints its \
                path; your copy then replaces the built-in everywhere. --avoid WORD (repeatable) \
                adds WORD to your copy's ladder-wide "avoid" list, making the copy first when \
                there is none (the built-in stays as it is), and says what it did. A bad ladder \
                file is one message naming the file, the field and what is wrong, and exit 64.

                Examples:
                  score ladder
                  score ladder spiders
                  score ladder spiders --copy && $EDITOR ~/.config/sposure/ladders/spiders.json
                  score ladder spiders --avoid "spider-man" --avoid marvel
                """)

        @ParentCommand var score: Score

        @OptionGroup var ladder: LadderArguments

        @Option(help: ArgumentHelp("Add this word or phrase to the \"avoid\" list of your copy of NAME (made from the built-in when there is none); repeatable.", valueName: "word"))
        var avoid: [String] = []

        mutating func validate() throws {
            try score.validateNow()
            if ladder.copy && ladder.name == nil { throw ValidationError("--copy needs a ladder's name.") }
            if ladder.replace && !ladder.copy { throw ValidationError("--replace goes with --copy.") }
            if !avoid.isEmpty && (ladder.name == nil || ladder.copy) { throw ValidationError("--avoid needs a ladder's name, and no --copy.") }
            for word in avoid {
                if let problem = AvoidList.problem(word) { throw ValidationError("--avoid: \(problem).") }
            }
            try score.refuseRoundOptions(in: "score ladder")
        }

        /// What `--avoid WORD` did, in a line.
        static func said(_ change: LadderLibrary.AvoidChange, _ word: String) -> String {
            let made = change.madeCopy ? " (your copy, made from the built-in)" : ""
            return change.added ? "added \"\(word)\" to the avoid list of \(change.path)\(made)"
                : "\"\(word)\" is avoided already in \(change.path)\(made); nothing changed"
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
                case .text:
                    // Each ladder with where you stand on it, not a bare list of names (issue 29 #9).
                    let history = HistoryFile.named(score.history.historyFile)
                    var contents = LadderHistory()
                    do {
                        contents = try LadderHistory(file: history, ladders: Set(list.ladders.map(\.name)))
                    } catch {
                        stage.diagnostics.warning("\(error): the ladders are listed without your rounds")
                    }
                    for problem in contents.problems { stage.diagnostics.warning(problem) }
                    let now = score.history.now.flatMap(Timestamp.date) ?? Date()
                    let standings = list.ladders.map { entry in
                        LadderList.Standing(name: entry.name, table: Result { () throws(LadderError) -> LadderTable in
                            let found = try library.load(entry.name)
                            return LadderTable(ladder: found.ladder, source: entry.copy ?? LadderList.builtIn,
                                               rounds: contents.rounds(of: found.ladder.name), now: now)
                        }, copy: entry.copy)
                    }
                    stage.output.push(contentsOf: LadderList.standingLines(standings).map { Array($0.utf8) })
                }
                throw ExitCode(stage.drain(failed: false))
            }
            if ladder.copy || !avoid.isEmpty {
                do {
                    if ladder.copy { stage.output.push(Array(try library.copy(name, replace: ladder.replace).utf8)) }
                    for word in avoid { stage.output.push(Array(Self.said(try library.avoid(word, in: name), word).utf8)) }
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
            var given: [OffTopicMark] = []
            do {
                given = try GIFRatingFile.beside(history).marks(ladder: found.ladder.name)
            } catch {
                stage.diagnostics.warning("off-topic marks: \(error)")
            }
            let marks = LadderMarks(marks: given, ladder: found.ladder)
            switch format {
            case .json:
                let record = table.record()
                marks.write(to: record)
                stage.output.push(record.serialized())
            case .text:
                let lines = table.lines(style: TextStyle.forOutput()) + marks.lines(ladder: found.ladder.name)
                stage.output.push(contentsOf: lines.map { Array($0.utf8) })
            }
            throw ExitCode(stage.drain(failed: false))
        }
    }
}
