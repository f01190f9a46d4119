import Foundation
import Testing
@testable import SposureKit

/// String(cFormat:) and trimmingWhitespace(), where the tools used Foundation's
/// String(format:) and trimmingCharacters(in: .whitespaces).
@Suite struct TextFormattingTests {
    @Test(arguments: [0.0, 0.05, 0.125, 1.5, 2.675, 999.95, -3.14159, 1e20, Double.nan, Double.infinity])
    func formatsNumbersAsFoundationDid(_ value: Double) {
        for format in ["%.1f", "%.2f", "%.3f", "%.2f GB", "%8.1f|"] {
            #expect(String(cFormat: format, value) == String(format: format, value), "\(format)")
        }
    }

    @Test func formatsTextLongerThanItsFirstBuffer() {
        let long = String(repeating: "x", count: 200)
        #expect(String(cFormat: long + " %d", 42) == long + " 42")
        #expect(String(cFormat: "%5d|%-3d|", 12, 3) == "   12|3  |")
    }

    @Test(arguments: ["", " ", "  10s ", "\t1.5 KB\t", "a b", " \u{00A0}x\u{2003} ", "x\n", "\n x \n"])
    func trimsWhitespaceAsFoundationDid(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(Substring(text).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: ["", " ", " \n\tkey\r\n ", "a b", "\u{2028}x\u{00A0}", "\n\n"])
    func trimsWhitespaceAndNewlinesAsFoundationDid(_ text: String) {
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func replacesBytesNotCharacters() {
        #expect("a\"b".replacingBytes("\"", with: "\"\"") == "a\"\"b")
        // `"` + U+0301 is one character, which a character-wise replace passes over.
        #expect("x\"\u{301}y".replacingBytes("\"", with: "\"\"") == "x\"\"\u{301}y")
        #expect("KEYKEYKE".replacingBytes("KEY", with: "R") == "RRKE")
        #expect("aaa".replacingBytes("aa", with: "b") == "ba")
        #expect("abc".replacingBytes("", with: "x") == "abc")
        #expect("ab".replacingBytes("abc", with: "x") == "ab")
        #expect("ünï".replacingBytes("n", with: "N") == "üNï")
    }
}
