import FrontDoorKit
import Testing
import TestSupport

/// `sposure play` asks Wikimedia Commons for thumbnails as wide as the
/// terminal can show (issue 31: "from the terminal's pixel size").
struct PlayRoundTests {
    @Test func theWindowsPixelsElseTwoAColumnAreThePictureWidth() {
        #expect(RoundRunner.pictureWidth(columns: 100, pixels: 1100) == 1100)
        #expect(RoundRunner.pictureWidth(columns: 80, pixels: 0) == 160)
        #expect(RoundRunner.pictureWidth(columns: 0, pixels: 0) == nil)
    }

    @Test func theListerIsGivenThePictureWidthWithinWhatItTakes() throws {
        let folder = try StageProcess.executableURL(named: "giphy-pages").deletingLastPathComponent().path
        let runner = RoundRunner(tool: "sposure play", tools: ToolFinder(folders: [folder]), environment: [:])
        func lister(_ width: Int?) throws -> [String] {
            var round = PlayRound()
            round.queries = ["spider"]
            round.pictureWidth = width
            let list = try round.commands(runner, events: "/dev/null").first { $0.name == "giphy-pages list" }
            return Array(try #require(list).arguments.dropFirst())
        }
        #expect(try lister(nil) == ["list", "--rating", "g", "--quiet"])
        #expect(try lister(1100) == ["list", "--rating", "g", "--quiet", "--width", "1100"])
        #expect(try lister(8) == ["list", "--rating", "g", "--quiet", "--width", "32"])
        #expect(try lister(9000) == ["list", "--rating", "g", "--quiet", "--width", "4096"])
    }
}
