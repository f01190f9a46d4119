import Foundation
import FrontDoorKit
import SposureKit
import Testing
import TestSupport

/// The one wiring of the stages: programs joined by pipes, statuses as a shell gives them.
@Suite struct StagePipelineTests {
    let diagnostics = Diagnostics(tool: "test")

    @Test func joinsProgramsByPipesFromAFileToAFile() throws {
        try withTemporaryDirectory { folder in
            let input = folder.path + "/in", output = folder.path + "/out"
            try Data("spiders\nsnakes\n".utf8).write(to: URL(fileURLWithPath: input))
            let statuses = try StagePipeline.run([StageCommand("a", ["tr", "a-z", "A-Z"]), StageCommand("b", ["sort"])],
                                                 input: .file(input), output: .file(output), diagnostics: diagnostics)
            #expect(statuses == [0, 0])
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "SNAKES\nSPIDERS\n")
        }
    }

    /// Issue 29 #10: each pipe between stages held 64 KiB, so a tee saving
    /// the stream let fetch-images run a hundred records ahead of gif-play.
    /// (perl, essential on Debian and Ubuntu, asks F_GETPIPE_SZ; it reads its
    /// input too: an echo that wrote after perl had gone died of SIGPIPE, 141,
    /// on a loaded machine.)
    @Test func issue29_10_thePipesBetweenStagesAreOnePage() throws {
        try withTemporaryDirectory { folder in
            let output = folder.path + "/out"
            let statuses = try StagePipeline.run([StageCommand("a", ["echo", "round"]),
                                                  StageCommand("b", ["perl", "-e", #"my $size = fcntl(STDIN, 1032, 0); 1 while <STDIN>; print $size, "\n""#])],
                                                 input: .null, output: .file(output), diagnostics: diagnostics)
            #expect(statuses == [0, 0])
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "\(getpagesize())\n")
        }
    }

    @Test func givesEachProgramsStatusAsAShellDoes() throws {
        let statuses = try StagePipeline.run([StageCommand("a", ["sh", "-c", "exit 3"]),
                                              StageCommand("b", ["sh", "-c", "cat >/dev/null; kill -TERM $$"])],
                                             input: .null, output: .null, diagnostics: diagnostics)
        #expect(statuses == [3, 143])
    }

    @Test func aProgramThatCannotStartIsExit127AndTheOthersStillEnd() throws {
        let statuses = try StagePipeline.run([StageCommand("a", ["/nonexistent/stage"]), StageCommand("b", ["cat"])],
                                             input: .null, output: .null, diagnostics: diagnostics)
        #expect(statuses == [127, 0])
    }

    @Test func aSaveKeepsTheStreamAndPassesItOn() throws {
        try withTemporaryDirectory { folder in
            let saved = folder.path + "/saved", output = folder.path + "/out"
            let statuses = try StagePipeline.run([StageCommand("a", ["echo", "round"]), .save("events", to: saved), StageCommand("c", ["cat"])],
                                                 input: .null, output: .file(output), diagnostics: diagnostics)
            #expect(statuses == [0, 0, 0])
            #expect(try String(contentsOfFile: saved, encoding: .utf8) == "round\n")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "round\n")
        }
    }

    @Test func aMissingInputFileIsSaidBeforeAnythingStarts() throws {
        #expect(throws: StagePipeline.SetupError.self) {
            try StagePipeline.run([StageCommand("a", ["cat"])], input: .file("/nonexistent/input"), diagnostics: diagnostics)
        }
    }

    /// Issue 28 #2: a save was `tee FILE`, which truncates a file that is there
    /// and writes through a link planted at the name. The pipeline makes each
    /// file it writes new; anything at the name stops the round before it starts.
    @Test func aSaveOrAnOutputNeverWritesOverAFileOrThroughALink() throws {
        try withTemporaryDirectory { folder in
            let victim = folder.path + "/victim", link = folder.path + "/link"
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: victim))
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
            for path in [victim, link] {
                #expect(throws: StagePipeline.SetupError.self) {
                    try StagePipeline.run([StageCommand("a", ["echo", "round"]), .save("events", to: path), StageCommand("c", ["cat"])],
                                          input: .null, output: .null, diagnostics: diagnostics)
                }
                #expect(throws: StagePipeline.SetupError.self) {
                    try StagePipeline.run([StageCommand("a", ["echo", "round"])], input: .null, output: .file(path), diagnostics: diagnostics)
                }
            }
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "mine\n")
        }
    }
}
