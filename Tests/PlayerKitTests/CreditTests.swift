import LadderKit
import PlayerKit
import SposureKit
import Testing

struct CreditTests {
    func credit(_ line: String) throws -> Credit? { Credit(record: try JSONRecord.parse(line)) }

    @Test func theStatusLineCreditsEachProviderAndTheCreator() throws {
        let giphy = try credit(#"{"kind":"image","id":"a","title":"t","creator":"Ohio State Athletics","cache_key":"giphy:a:fixed_height"}"#)
        let klipy = try credit(#"{"kind":"image","provider":"klipy","id":"1","cache_key":"klipy:1:sm"}"#)
        #expect(RoundStatus(exposedMs: 12_400, gifsSeen: 3, section: "spiders", loading: false, credit: giphy).text
                == "exposure 12s · 3 GIFs · spiders · Powered by GIPHY · by Ohio State Athletics")
        #expect(RoundStatus(exposedMs: 0, gifsSeen: 1, section: "spiders", loading: true, credit: klipy).text
                == "exposure 0s · 1 GIF · spiders · loading… · Powered by KLIPY")
        #expect(RoundStatus(exposedMs: 0, gifsSeen: 1, section: "", loading: false).text == "exposure 0s · 1 GIF")
    }

    @Test func aGIFFromNoAPIIsCreditedToNobody() throws {
        #expect(try credit(#"{"kind":"image","id":"demo-1","path":"/tmp/a.gif"}"#) == nil)
        #expect(try credit(#"{"kind":"image","id":"x","creator":"someone"}"#) == nil)
        #expect(try credit(#"{"kind":"image","provider":"local","id":"FILE.gif","section":"DIR","path":"/abs/DIR/FILE.gif"}"#) == nil)
        #expect(try credit(#"{"kind":"image","provider":"local","id":"spider","section":"samples","cache_key":"sample:spider","path":"/tmp/s/spider.gif"}"#) == nil, "the demo's own GIFs credit nobody")
    }

    @Test func aHostileCreatorNameIsShownPlainAndShort() throws {
        let hostile = try #require(try credit(#"{"kind":"image","provider":"giphy","id":"a","creator":"evil\u001b]0;pwned\u0007\u001b[2J name\u202e\r\nnext"}"#))
        let text = hostile.text
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" || $0 == "\u{1B}" }, "\(text.debugDescription)")
        #expect(text.hasPrefix("Powered by GIPHY · by evil"))
        let long = Credit(provider: "giphy", creator: String(repeating: "w", count: 100))
        #expect(long.text == "Powered by GIPHY · by " + String(repeating: "w", count: 39) + "…")
        // A blank name after cleaning is no name.
        #expect(Credit(provider: "klipy", creator: "\u{1B}[0m").text == "Powered by KLIPY")
    }

    /// Issue 28 (smaller): a record's `provider` was shown as "Powered by
    /// <anything>": only the APIs the program knows are credited.
    @Test func onlyAKnownProviderIsCredited() throws {
        #expect(try credit(#"{"kind":"image","provider":"tenor","id":"a"}"#) == nil)
        #expect(try credit(#"{"kind":"image","provider":"GIPHY","id":"a"}"#) == nil)
        #expect(try credit(#"{"kind":"image","provider":"FREE BITCOIN at evil.example","id":"a"}"#) == nil)
        #expect(try credit(#"{"kind":"image","id":"a","cache_key":"evil\u001b[2J:a:x"}"#) == nil)
        #expect(try credit(#"{"kind":"image","provider":"klipy","id":"a"}"#)?.mark == "Powered by KLIPY")
    }
}
