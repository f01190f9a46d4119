import FrontDoorKit
import SposureKit
import Testing

/// What the round commands say before a round.
@Suite struct RoundRunnerTests {
    /// Issue 29 #9: the no-key message of `sposure play` broke mid-word at 100 columns.
    @Test func issue29_9_theNoKeyMessageBreaksAtSpacesOnATerminal() {
        let lines = Diagnostics.lines(tool: "sposure play", message: RoundRunner.noKeyMessage, width: 100)
        #expect(lines == [
            "sposure play: GIPHY_API_KEY is not set, nor KLIPY_API_KEY. Get a Giphy key (free at",
            "  https://developers.giphy.com/dashboard/ (create an app, choose \"API\")): export",
            "  GIPHY_API_KEY=your-key; or a Klipy key (free at https://klipy.com (sign up as a developer and make",
            "  an API key; about 100 calls a day until the app is approved)): export KLIPY_API_KEY=your-key.",
            "  sposure demo plays offline without one",
        ])
        #expect(lines.allSatisfy { $0.count <= 100 })
    }
}
