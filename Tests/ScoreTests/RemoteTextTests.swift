import ScoreKit
import Testing

@Suite struct RemoteTextTests {
    @Test func removesControlsAndBidiOverrides() {
        #expect(RemoteText.clean("a\u{1B}[2Jb\u{202E}c\u{7F}d\u{9B}e") == "a[2Jbcde")
    }

    @Test func foldsWhiteSpaceToOneLine() {
        #expect(RemoteText.clean("  big\n\t spiders  ") == "big spiders")
        #expect(RemoteText.clean("next\u{85}line\u{2028}too") == "next line too")
    }

    @Test func cutsLongTextWithAnEllipsis() {
        #expect(RemoteText.clean(String(repeating: "x", count: 50), limit: 10) == "xxxxxxxxx…")
        #expect(RemoteText.clean("short", limit: 10) == "short")
    }
}
