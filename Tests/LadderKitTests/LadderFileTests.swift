import Foundation
import LadderKit
import Testing

/// A ladder's JSON with `rungs` rungs of rising SUDS, changed by `edit`.
func ladderJSON(rungs: Int = 8, name: String = "mine", extra: String = "", rung: (Int) -> String = { "{\"query\": \"thing \($0)\", \"suds\": \($0 * 10)}" }) -> String {
    let items = (1...rungs).map(rung).joined(separator: ",\n    ")
    return "{\n  \"name\": \"\(name)\",\n  \"title\": \"Mine\",\(extra)\n  \"rungs\": [\n    \(items)\n  ]\n}\n"
}

func message(_ text: String, file: String = "mine.json") -> String? {
    do {
        _ = try LadderFile.parse(text, file: file)
        return nil
    } catch {
        return error.description
    }
}

struct LadderFileTests {
    @Test func readsAGoodLadder() throws {
        let ladder = try LadderFile.parse(ladderJSON(extra: "\n  \"expectation\": \"I will panic\","), file: "mine.json")
        #expect(ladder.name == "mine")
        #expect(ladder.expectation == "I will panic")
        #expect(ladder.rungs.count == 8)
        #expect(ladder.rung(1) == Rung(queries: ["thing 1"], suds: 10))
        #expect(ladder.rung(9) == nil)
        #expect(ladder.rules == LadderRules())
    }

    @Test func readsQueriesAFolderAndStills() throws {
        let ladder = try LadderFile.parse(ladderJSON { number in
            switch number {
            case 1: return "{\"queries\": [\"a\", \"b\"], \"suds\": 10, \"still\": true}"
            case 2: return "{\"dir\": \"/home/me/gifs\", \"suds\": 20}"
            default: return "{\"query\": \"q\", \"suds\": \(number * 10)}"
            }
        }, file: "mine.json")
        #expect(ladder.rungs[0] == Rung(queries: ["a", "b"], suds: 10, still: true))
        #expect(ladder.rungs[1] == Rung(dir: "/home/me/gifs", suds: 20))
    }

    @Test func readsRules() throws {
        let ladder = try LadderFile.parse(ladderJSON(extra: "\n  \"rules\": {\"count_seconds\": 30, \"retest_days\": [3, 14, 60], \"step_up_drop_pct\": 40, \"mix_every\": 3},"), file: "mine.json")
        #expect(ladder.rules.countMs == 30_000)
        #expect(ladder.rules.retestDays == [3, 14, 60])
        #expect(ladder.rules.stepUpDropPercent == 40)
        #expect(ladder.rules.mixEvery == 3)
        #expect(ladder.rules.stepUpRounds == 2)
    }

    @Test func badJSONNamesItsLine() {
        let text = "{\n  \"name\": \"mine\",\n  \"title\": \"Mine\"\n  \"rungs\": []\n}\n"
        #expect(message(text) == "mine.json:4: not valid JSON: '}' expected near '\"rungs\"'")
    }

    /// jansson reads the whole file: its faults carry jansson's own line,
    /// and a field given twice is refused (which of the two counts would
    /// otherwise be a silent choice).
    @Test func janssonReadsTheFileAndRefusesAFieldGivenTwice() {
        let twice = ladderJSON { $0 == 5 ? "{\"query\": \"q\", \"suds\": 50, \"suds\": 90}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(twice) == "mine.json:9: a field given twice: '\"suds\"'")
        let cut = ladderJSON().split(separator: "\n").prefix(7).joined(separator: "\n")
        #expect(message(cut)?.hasPrefix("mine.json:7: not valid JSON: ") == true, "\(message(cut) ?? "parsed")")
        let huge = ladderJSON { $0 == 2 ? "{\"query\": \"q\", \"suds\": 99999999999999999999}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(huge) == "mine.json:6: not valid JSON: too big integer near '99999999999999999999'")
        let real = ladderJSON { $0 == 2 ? "{\"query\": \"q\", \"suds\": 20.0}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(real) == "mine.json: rung 2, \"suds\": must be a whole number 0–100, found 20.0")
    }

    /// A ladder's words are shown on screen, and a ladder file may be
    /// someone else's: escapes, line breaks and bidi overrides are refused.
    @Test func textHoldingAControlCharacterIsRefused() {
        let escape = ladderJSON().replacingOccurrences(of: "\"title\": \"Mine\"", with: #""title": "Mine\u001b]0;PWNED\u0007""#)
        #expect(message(escape) == "mine.json: \"title\": holds the control character U+001B; a ladder's text is plain, on one line")
        let expectation = ladderJSON(extra: "\n  \"expectation\": \"I will\\r\\npanic\",")
        #expect(message(expectation) == "mine.json: \"expectation\": holds the control character U+000D; a ladder's text is plain, on one line")
        let bidi = ladderJSON { $0 == 4 ? "{\"queries\": [\"ok\", \"\u{202E}redips\"], \"suds\": 40}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(bidi) == "mine.json: rung 4, \"queries\": holds the control character U+202E; a ladder's text is plain, on one line")
        let csi = ladderJSON { $0 == 2 ? "{\"dir\": \"/gifs\\u009b2J\", \"suds\": 20}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(csi) == "mine.json: rung 2, \"dir\": holds the control character U+009B; a ladder's text is plain, on one line")
        #expect(message(ladderJSON(extra: "\n  \"expectation\": \"ünïcödé 🕷️ fine\",")) == nil)
    }

    /// Issue "Hostile input, third pass", item 9: a line separator (U+2028,
    /// U+2029) and zero-width characters were accepted in text documented as
    /// plain and on one line; the joiners that scripts and emoji need stay.
    @Test func lineSeparatorsAndZeroWidthCharactersAreRefused() {
        for (scalar, code) in [("\u{2028}", "2028"), ("\u{2029}", "2029"), ("\u{200B}", "200B"), ("\u{2060}", "2060"), ("\u{FEFF}", "FEFF")] {
            let title = ladderJSON().replacingOccurrences(of: "\"title\": \"Mine\"", with: "\"title\": \"Mi\(scalar)ne\"")
            #expect(message(title) == "mine.json: \"title\": holds the control character U+\(code); a ladder's text is plain, on one line")
        }
        let query = ladderJSON { $0 == 3 ? "{\"query\": \"spi\\u2028der\", \"suds\": 30}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(query) == "mine.json: rung 3, \"query\": holds the control character U+2028; a ladder's text is plain, on one line")
        #expect(message(ladderJSON(extra: "\n  \"expectation\": \"a family 👨\u{200D}👩\u{200D}👧, می\u{200C}خواهم\",")) == nil)
    }

    @Test func aByteOrderMarkIsSkippedAndANULIsNamed() {
        #expect(message("\u{FEFF}" + ladderJSON()) == nil)
        let nul = ladderJSON(extra: "\n  \"expectation\": \"a\\u0000b\",")
        #expect(message(nul) == "mine.json:4: not valid JSON: \\u0000 (a NUL character) is not allowed in a string")
    }

    @Test func aFileThatCannotBeReadSaysWhy() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func failure(_ path: String) -> String? {
            do {
                _ = try LadderFile.read(path: path)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(failure(folder + "/none.json") == "\(folder)/none.json: no such file")
        #expect(failure(folder) == "\(folder): cannot be read: is a folder, not a file")
        #expect(mkfifo(folder + "/fifo.json", 0o600) == 0)
        #expect(failure(folder + "/fifo.json") == "\(folder)/fifo.json: cannot be read: not a regular file")
        let big = folder + "/big.json"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 2 << 20) == 0)
        #expect(failure(big) == "\(big): cannot be read: 2097152 bytes, more than the 1024 KiB such a file may have")
    }

    @Test func anEmptyFileOrAnArrayIsNoLadder() {
        #expect(message("\n") == "mine.json: the file is empty")
        #expect(message("[1]") == "mine.json: a ladder is a JSON object, found an array")
    }

    @Test func missingAndWrongTopFields() {
        #expect(message("{\"title\": \"x\", \"rungs\": []}") == "mine.json: \"name\": missing")
        #expect(message("{\"name\": \"Mine!\", \"title\": \"x\"}") == "mine.json: \"name\": \"Mine!\" must be lower-case letters, digits, - or _ (at most 40)")
        #expect(message("{\"name\": \"mine\", \"title\": 3}") == "mine.json: \"title\": must be a non-empty string, found 3")
        #expect(message("{\"name\": \"mine\", \"title\": \"x\"}") == "mine.json: \"rungs\": missing")
        #expect(message("{\"name\": \"mine\", \"title\": \"x\", \"rung\": []}") == "mine.json: \"rung\": unknown field (a ladder has name, title, expectation, rungs, rules, avoid)")
        #expect(message(ladderJSON(rungs: 7)) == "mine.json: \"rungs\": 7 rungs; a ladder has 8 to 15")
        #expect(message(ladderJSON(rungs: 16) .replacingOccurrences(of: "\"suds\": 160", with: "\"suds\": 100")) != nil)
    }

    @Test func theNameMustMatchTheFile() {
        do {
            _ = try LadderFile.parse(ladderJSON(), file: "/c/ladders/other.json", expectedName: "other")
            Issue.record("parsed")
        } catch {
            #expect(error.description == "/c/ladders/other.json: \"name\": \"mine\" but the file is other.json")
        }
    }

    @Test func aRungWithoutQueryOrDir() {
        let text = ladderJSON { $0 == 3 ? "{\"suds\": 30}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(text) == "mine.json: rung 3: needs \"query\", \"queries\" or \"dir\"")
        let both = ladderJSON { $0 == 2 ? "{\"query\": \"q\", \"dir\": \"/d\", \"suds\": 20}" : "{\"query\": \"q\", \"suds\": \($0 * 10)}" }
        #expect(message(both) == "mine.json: rung 2: give one of \"query\", \"queries\" or \"dir\", not \"query\" and \"dir\"")
    }

    @Test func sudsOutOfRangeMissingOrFalling() {
        func with(_ rung3: String) -> String? {
            message(ladderJSON { $0 == 3 ? rung3 : "{\"query\": \"q\", \"suds\": \($0 * 10)}" })
        }
        #expect(with("{\"query\": \"q\"}") == "mine.json: rung 3, \"suds\": missing (the distress expected, 0–100)")
        #expect(with("{\"query\": \"q\", \"suds\": 120}") == "mine.json: rung 3, \"suds\": 120 is outside 0–100")
        #expect(with("{\"query\": \"q\", \"suds\": -5}") == "mine.json: rung 3, \"suds\": -5 is outside 0–100")
        #expect(with("{\"query\": \"q\", \"suds\": 25.5}") == "mine.json: rung 3, \"suds\": must be a whole number 0–100, found 25.5")
        #expect(with("{\"query\": \"q\", \"suds\": 15}") == "mine.json: rung 3, \"suds\": 15 falls below rung 2's 20 (SUDS rise from rung to rung)")
        #expect(with("{\"query\": \"q\", \"suds\": 36}") == "mine.json: rung 3, \"suds\": 36 is 16 over rung 2's 20; rungs differ by at most 15")
        #expect(with("{\"query\": \"q\", \"suds\": 25}") == nil)
        #expect(message(ladderJSON { _ in "{\"query\": \"q\", \"suds\": 10}" }) == nil)  // equal is not falling
    }

    @Test func badRungFields() {
        func with(_ rung3: String) -> String? {
            message(ladderJSON { $0 == 3 ? rung3 : "{\"query\": \"q\", \"suds\": \($0 * 10)}" })
        }
        #expect(with("{\"query\": \"\", \"suds\": 30}") == "mine.json: rung 3, \"query\": must be a non-empty string, found \"\"")
        #expect(with("{\"queries\": [], \"suds\": 30}") == "mine.json: rung 3, \"queries\": must be a non-empty array of strings")
        #expect(with("{\"query\": \"q\", \"suds\": 30, \"still\": \"yes\"}") == "mine.json: rung 3, \"still\": must be true or false, found \"yes\"")
        #expect(with("{\"query\": \"q\", \"sud\": 30}") == "mine.json: rung 3, \"sud\": unknown field (a rung has query, queries, dir, suds, still, approach, avoid, by_provider)")
        // Issue 31: an API's own searches.
        #expect(with("{\"query\": \"q\", \"suds\": 30, \"by_provider\": [\"q\"]}") == "mine.json: rung 3, \"by_provider\": must be an object of API names (\"commons\") and their query or queries")
        #expect(with("{\"query\": \"q\", \"suds\": 30, \"by_provider\": {\"Commons\": \"q\"}}") == "mine.json: rung 3, \"by_provider\": \"Commons\" is not an API name (giphy, klipy, commons)")
        #expect(with("{\"query\": \"q\", \"suds\": 30, \"by_provider\": {\"commons\": [\"a\", 1]}}") == "mine.json: rung 3, \"by_provider\", \"commons\": must be a non-empty string, found 1")
        #expect(with("{\"query\": \"q\", \"suds\": 30, \"by_provider\": {\"commons\": [\"Araneae\", \"Salticidae\"]}}") == nil)
        #expect(with("{\"query\": \"\(String(repeating: "x", count: 51))\", \"suds\": 30}") == "mine.json: rung 3, \"query\": \"xxxxxxxxxxxxxxxxxxxx…\" is 51 characters; a query has at most 50")
    }

    @Test func badRules() {
        func with(_ rules: String) -> String? { message(ladderJSON(extra: "\n  \"rules\": \(rules),")) }
        #expect(with("{\"step_up_suds\": 11}") == "mine.json: rules, \"step_up_suds\": 11 is outside 0–10")
        #expect(with("{\"retest_days\": [28, 7]}") == "mine.json: rules, \"retest_days\": days must rise (7 after 28)")
        #expect(with("{\"steps\": 1}")?.hasPrefix("mine.json: rules, \"steps\": unknown rule") == true)
    }

    @Test func everyBuiltInLadderReads() throws {
        #expect(BuiltInLadders.names.count >= 10)
        for name in ["spiders", "snakes", "dogs", "insects", "heights", "flying", "needles", "blood", "clowns", "deep-water"] {
            let text = try #require(BuiltInLadders.text(name))
            let ladder = try LadderFile.parse(text, file: "built-in \(name)")
            #expect(ladder.name == name)
            #expect(Ladder.rungCount.contains(ladder.rungs.count))
            // Issue 31: every rung names its Wikimedia Commons searches.
            #expect(ladder.rungs.allSatisfy { $0.providerQueries["commons"]?.isEmpty == false }, "\(name)")
            #expect(ladder.rungs.first?.still == true, "\(name) starts with a still")
            #expect(ladder.expectation != nil)
        }
    }
}
