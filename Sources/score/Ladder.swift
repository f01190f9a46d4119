import ArgumentParser
import RecordKit
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
            discussion: Self.discussion)

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
