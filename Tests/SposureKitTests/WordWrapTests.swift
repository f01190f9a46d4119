import SposureKit
import Testing

/// Text broken at spaces to a terminal's width (issue 29 #9).
@Suite struct WordWrapTests {
    @Test func breaksAtSpacesIndentsTheRestAndKeepsALongWordWhole() {
        #expect(WordWrap.lines("one two three four five six", width: 14, indent: "  ") == ["one two three", "  four five", "  six"])
        #expect(WordWrap.lines("see https://developers.giphy.com/dashboard/ now", width: 20, indent: "") == [
            "see", "https://developers.giphy.com/dashboard/", "now",
        ])
        #expect(WordWrap.lines("short", width: 100) == ["short"])
    }

    @Test func keepsTheColumnsOfARowAndCountsNoEscapes() {
        let row = "\u{1B}[1mKeys\u{1B}[0m          GIPHY_API_KEY not set (Giphy: free at the dashboard)"
        #expect(WordWrap.columns(row) == 66)
        #expect(WordWrap.lines(row, width: 50, indent: String(repeating: " ", count: 14)) == [
            "\u{1B}[1mKeys\u{1B}[0m          GIPHY_API_KEY not set (Giphy: free",
            "              at the dashboard)",
        ])
    }

    /// Issue 29 #9: "some GIFs could not be fetched …" broke mid-word at 100 columns.
    @Test func issue29_9_aWarningOnATerminalBreaksAtSpacesNotMidWord() {
        let message = "some GIFs could not be fetched (fetch-images exit 1): the score counts them under errors"
        #expect(Diagnostics.lines(tool: "sposure play", message: message, width: 100) == [
            "sposure play: some GIFs could not be fetched (fetch-images exit 1): the score counts them under",
            "  errors",
        ])
        #expect(Diagnostics.lines(tool: "sposure play", message: message, width: nil) == ["sposure play: " + message])
    }
}
