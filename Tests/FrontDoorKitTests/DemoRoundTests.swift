import FrontDoorKit
import Testing

/// The offline demo's own words.
@Suite struct DemoRoundTests {
    /// Issue 29 #9: the demo's Game Over suggested no next command.
    @Test func issue29_9_theDemoEndsWithTheCommandToTypeNext() {
        #expect(DemoRound.nextLines(environment: [:]) == [
            "",
            "  Next          sposure play   (no key needed: Wikimedia Commons's freely licensed pictures)",
            "                a free Giphy or Klipy key adds GIFs:",
            "                export GIPHY_API_KEY=your-key   (https://developers.giphy.com/dashboard/)",
            "                or export KLIPY_API_KEY=your-key   (https://klipy.com)",
        ])
        #expect(DemoRound.nextLines(environment: ["KLIPY_API_KEY": "k"]) == [
            "",
            "  Next          sposure play   (your Klipy key is set: the live game, a ladder of your fear)",
        ])
    }
}
