import Testing
@testable import ScoreKit

/// A CSV field is quoted when it holds a comma, a quote or a line break,
/// however the quote is combined.
@Suite struct HistoryCSVQuoteTests {
    @Test func quotesWhatNeedsQuoting() {
        #expect(HistoryCSV.quote("spiders") == "spiders")
        #expect(HistoryCSV.quote("a,b") == "\"a,b\"")
        #expect(HistoryCSV.quote("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(HistoryCSV.quote("two\nlines") == "\"two\nlines\"")
        #expect(HistoryCSV.quote("cr\r") == "\"cr\r\"")
    }

    @Test func aQuoteWithACombiningMarkIsStillQuotedAndDoubled() {
        // `"` + U+0301 is one Swift character: a character-wise check missed it,
        // leaving a bare quote that breaks the row.
        #expect(HistoryCSV.quote("x\"\u{301}y") == "\"x\"\"\u{301}y\"")
    }
}
