// Klipy puts its key in the path (`/api/v1/KEY/gifs/search`): every shown URL
// has that segment masked, by bytes, so no character built around a `/` (a
// combining mark after it) can hide the segment from the mask.

import GiphyKit
import Testing

@Suite struct KlipyRedactionTests {
    @Test func theSegmentAfterEveryAPIPrefixIsMasked() {
        #expect(KlipyAPI.redactedPath("http://h/api/v1/k3y/gifs/search?q=a") == "http://h/api/v1/REDACTED/gifs/search?q=a")
        #expect(KlipyAPI.redactedPath("a /api/v1/one? b \"/api/v1/two#x") == "a /api/v1/REDACTED? b \"/api/v1/REDACTED#x")
        #expect(KlipyAPI.redactedPath("/api/v1//gifs") == "/api/v1//gifs", "no segment: nothing to mask")
        #expect(KlipyAPI.redactedPath("no key here") == "no key here")
    }

    @Test func aCombiningMarkDoesNotHideTheKey() {
        // "/" + U+0301 is one character: a character-wise search missed the prefix.
        let text = "GET /api/v1/\u{301}secretKey42/gifs"
        let shown = KlipyAPI.redactedPath(text)
        #expect(!shown.contains("secretKey42"), "\(shown)")
        #expect(shown == "GET /api/v1/REDACTED/gifs")
    }
}
