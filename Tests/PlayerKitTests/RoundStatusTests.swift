import PlayerKit
import Testing

/// The status line's words (issue 29 #8, #9).
@Suite struct RoundStatusTests {
    /// Issue 29 #9: the timer began with ⏱, which DejaVu Sans Mono and
    /// other common monospace fonts draw as an empty box.
    @Test func issue29_9_theTimerIsWordsNoStopwatchGlyph() {
        let status = RoundStatus(exposedMs: 12_400, gifsSeen: 3, section: "spiders", loading: false)
        #expect(status.text == "exposure 12s · 3 GIFs · spiders")
        #expect(status.text.unicodeScalars.allSatisfy { $0.value < 0x2000 })
    }

    /// Issue 29 #8: held with the gif buffer empty and more GIFs coming,
    /// the line says "loading more…"; a frame still decoding is "loading…".
    @Test func issue29_8_anEmptyBufferWithMoreComingSaysLoadingMore() {
        #expect(RoundStatus(exposedMs: 3100, gifsSeen: 5, section: "spiders", loading: true, waitingForMore: true).text
                == "exposure 3s · 5 GIFs · spiders · loading more…")
        #expect(RoundStatus(exposedMs: 3100, gifsSeen: 5, section: "spiders", loading: true, waitingForMore: false).text
                == "exposure 3s · 5 GIFs · spiders · loading…")
    }
}
