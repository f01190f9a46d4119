// Klipy puts its key in the path (`/api/v1/KEY/gifs/search`): every shown URL
// has that segment masked, by bytes, so no character built around a `/` (a
// combining mark after it) can hide the segment from the mask.

import GiphyKit
import SposureKit
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

    /// Defect 9 of "Hostile input, third pass": a key echoed in a 200
    /// answer (a title, a URL, a path segment, escaped or not) reached the
    /// `gif` record and the cache file. The answer is masked before either.
    @Test func aKeyEchoedInAnAnswerIsMaskedWhereverItIs() throws {
        let key = "klipyKey9Zz8Yy7Xx"
        let access = try APIAccess(provider: .klipy, apiURL: "http://127.0.0.1:1", environment: ["KLIPY_API_KEY": key])
        let body = #"{"result":true,"data":{"data":[{"id":1,"title":"echo klipyKey9Zz8Yy7Xx","file":{"sm":{"gif":{"url":"https://static.klipy.com/ii/\u006blipyKey9Zz8Yy7Xx/sm.gif"}}},"next":"https://api.klipy.com/api/v1/other/gifs"}],"has_next":false}}"#
        let masked = access.masked(answer: Array(body.utf8))
        let text = String(decoding: masked, as: UTF8.self)
        #expect(!text.contains(key), "\(text)")
        #expect(text.contains(#""title":"echo REDACTED""#) && text.contains("/ii/REDACTED/sm.gif"), "\(text)")
        #expect(text.contains("/api/v1/REDACTED/gifs"), "Klipy's key segment, whatever it holds")
        let clean = Array(#"{"result":true,"data":{"data":[],"has_next":false}}"#.utf8)
        #expect(access.masked(answer: clean) == clean, "the same bytes when nothing is masked")
        #expect(access.masked(answer: Array("not json".utf8)) == Array("not json".utf8))
    }
}
