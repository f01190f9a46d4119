import Foundation
import GiphyKit
import Testing

/// PageRequest.escape percent-encodes as Foundation's addingPercentEncoding
/// did with the unreserved characters allowed (RFC 3986).
@Suite struct PageRequestEscapeTests {
    @Test(arguments: ["", "spiders", "big spiders", "a&b=c?d#e/f+g%h", "ünïcödé 🕷️", "-._~", "\u{0}\n\t\"'<>"])
    func escapesAllButTheUnreserved(_ text: String) throws {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        #expect(PageRequest.escape(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
    }

    @Test func escapesBytesInUpperCaseHex() {
        #expect(PageRequest.escape("a b/ü~") == "a%20b%2F%C3%BC~")
    }
}
