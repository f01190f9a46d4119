// `score history --help` said score's exit table and none of the options it
// takes from score (issue 16 #11): it has its own now.

import Testing
import TestSupport

@Suite struct HistoryHelpTests {
    @Test func historyHelpListsItsOwnOptionsAndExitTable() throws {
        let help = try StageProcess.run("score", arguments: ["history", "--help"])
        #expect(help.exitCode == 0)
        let text = String(decoding: help.stdout, as: UTF8.self)
        for option in ["--plot", "--export", "--last", "--format text|json", "--history-file FILE", "--now TIME", "--quiet"] {
            #expect(text.contains(option), "\(option) missing")
        }
        #expect(text.contains("0    the statistics (or the CSV) were written, an empty history's too"))
        #expect(text.contains("2    the history could not be read, or --plot could not be written"))
        // Score's round-only options and exit lines are not history's.
        for other in ["--share", "--distress", "--no-history", "--max-line", "--at ", "the input held no round", "a round was scored"] {
            #expect(!text.contains(other), "\(other) should not be in score history --help")
        }
    }

    @Test func scoreHelpKeepsItsOwnExitTable() throws {
        let help = try StageProcess.run("score", arguments: ["--help"])
        let text = String(decoding: help.stdout, as: UTF8.self)
        #expect(text.contains("1    the input held no round at all"))
        #expect(!text.contains("score history: the statistics were written"))
    }
}
