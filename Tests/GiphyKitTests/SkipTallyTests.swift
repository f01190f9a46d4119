@testable import GiphyKit
import Testing

/// What `list` counts as left out for its format stays bounded, however many
/// types an answer names: an answer is remote text.
struct SkipTallyTests {
    @Test func formatsFoldCaseAndPastEightCountAsOther() {
        var counts = SkipTally.Counts()
        counts.unplayable("image/SVG+xml")
        counts.unplayable("image/svg+xml")
        for n in 1...20 { counts.unplayable("video/x-\(n)") }
        #expect(counts.formats.count == 9)
        #expect(counts.formats.first?.mime == "image/svg+xml" && counts.formats.first?.count == 2)
        #expect(counts.formats.last?.mime == "other" && counts.formats.last?.count == 13)
        #expect(counts.unplayable == 22)
    }
}
