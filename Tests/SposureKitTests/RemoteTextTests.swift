import SposureKit
import Testing

@Suite struct RemoteTextTests {
    @Test func removesControlsAndBidiOverrides() {
        // ESC [ 2 J and C1 CSI "e" are sequences: they go whole.
        #expect(RemoteText.clean("a\u{1B}[2Jb\u{202E}c\u{7F}d\u{9B}e") == "abcd")
        #expect(RemoteText.clean("x\u{200E}y\u{061C}z\u{2067}") == "xyz")
    }

    @Test func foldsWhiteSpaceToOneLine() {
        #expect(RemoteText.clean("  big\n\t spiders  ") == "big spiders")
        #expect(RemoteText.clean("next\u{85}line\u{2028}too") == "next line too")
    }

    @Test func cutsLongTextWithAnEllipsis() {
        #expect(RemoteText.clean(String(repeating: "x", count: 50), limit: 10) == "xxxxxxxxx…")
        #expect(RemoteText.clean("short", limit: 10) == "short")
    }

    /// Regression (issue 16): score's report showed `osc52]52;c;cHduZWQK`, the
    /// payload of a clipboard-writing OSC 52 sequence, because only its ESC was removed.
    @Test func removesTheWholeOSCPayloadNotJustItsEscape() {
        #expect(RemoteText.clean("osc52\u{1B}]52;c;cHduZWQK\u{07}") == "osc52")
        #expect(RemoteText.clean("title\u{1B}]0;pwned\u{1B}\\ ok") == "title ok")
        #expect(RemoteText.strip("dcs\u{1B}P1;2|payload\u{1B}\\!") == "dcs!")
        #expect(RemoteText.strip("two\u{1B}(Bchar") == "twochar")
    }

    @Test func visibleKeepsEveryCharacterButShowsControls() {
        #expect(RemoteText.visible("title\u{1B}]0;pwned\u{07}\u{9B}2J ok") == "title\\u{1b}]0;pwned\\u{7}\\u{9b}2J ok")
        #expect(RemoteText.visible("plain é") == "plain é")
    }

    /// Issue 28 #3: visible let the bidi controls through, so a name could
    /// show itself reversed ("U+202E gnp.exe").
    @Test func visibleShowsBidiControlsToo() {
        #expect(RemoteText.visible("a\u{202E}gnp\u{2066}b\u{200F}c\u{061C}") == "a\\u{202e}gnp\\u{2066}b\\u{200f}c\\u{61c}")
    }

    /// Issue 31: Wikimedia Commons' `Artist` is HTML; the credit is plain text.
    @Test(arguments: [
        (#"<a href="//commons.wikimedia.org/wiki/User:Jane">Jane&nbsp;Doe</a> &amp; Jo&shy;hann"#, "Jane Doe & Johann"),
        ("<script>alert(1)</script>Ann<style>b{}</style>e&#8203;\u{FEFF} M&#xFC;ller", "Anne Müller"),
        ("<span>a</span><br/>b&lt;3 &bogus; &#27;[31mred&#x1b;[0m", "a b<3 &bogus; red"),
        ("<SCRIPT>never closed", ""), ("if a < b & c", "if a < b & c"), ("<p>one</p><p>two</p>", "one two"),
    ])
    func plainTextOfHTML(_ html: String, _ text: String) {
        #expect(RemoteText.plainText(html: html) == text)
    }
}
