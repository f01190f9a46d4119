import SposureKit
import Testing
import HistoryKit
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

    /// The ladder name and how a round ended come from the history, which a
    /// hand edit or a hostile stream may have filled: the export carried
    /// escapes and spreadsheet formulas through raw.
    @Test func textFromTheHistoryCarriesNoEscapeAndNoFormula() throws {
        #expect(HistoryCSV.text("spiders") == "spiders")
        #expect(HistoryCSV.text(nil) == "")
        #expect(HistoryCSV.text("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\") == "link")
        #expect(HistoryCSV.text("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0")
        for formula in ["@SUM(1+1)", "+1+2", "-2+3"] { #expect(HistoryCSV.text(formula) == "'" + formula) }
        #expect(HistoryCSV.text("\u{7}=1+1") == "'=1+1", "a control character first does not hide a formula")
        var entry = try #require(HistoryEntry(record: try JSONRecord.parse(
            #"{"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":1000,"ladder":"=HYPERLINK(\"x\")","rung":1,"reason":"@x"}"#)))
        entry.incomplete = false
        let row = HistoryCSV.row(entry)
        #expect(row.hasPrefix(#"2026-11-21,10:00:00,"'=HYPERLINK(""x"")",1,"#), "\(row)")
        #expect(row.hasSuffix(",'@x,no"), "\(row)")
    }
}
