import Foundation
import Testing
@testable import SposureKit

@Suite struct JSONRecordTests {
    @Test func parsesAnObjectAndReadsItsFields() throws {
        let record = try JSONRecord.parse(#"{"kind":"gif","id":"a","rank":3,"ok":true,"w":2.0}"#)
        #expect(record.kind == "gif")
        #expect(record.string("id") == "a")
        #expect(record.int("rank") == 3)
        #expect(record.int("w") == 2)
        #expect(record.bool("ok") == true)
        #expect(record.string("rank") == nil)
        #expect(record.has("missing") == false)
    }

    @Test(arguments: ["[1,2]", "\"text\"", "42", "null", "{\"a\":", "{\"a\":1} trailing", "not json"])
    func rejectsWhatIsNotOneObject(_ line: String) {
        #expect(throws: JSONRecord.ParseError.self) { try JSONRecord.parse(line) }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(throws: JSONRecord.ParseError.self) {
            try bytes.withUnsafeBytes { try JSONRecord.parse($0) }
        }
    }

    /// Issue 20: a record's fields written from one list, in order; an
    /// optional is null when nil unless it is omitted, an existing key keeps its place.
    @Test func writesAListOfFieldsInOrder() throws {
        let record = try JSONRecord.parse(#"{"kind":"gif","id":"a","size":1}"#)
        let none: Int? = nil, text: String? = "t", gone: String? = nil
        record.set([("kind", "image"), ("size", 2), ("ok", true), ("w", 0.5), ("n", none), ("text", text),
                    ("gone", gone.omittedWhenNil), ("kept", Int?(7).omittedWhenNil), ("off", false.omittedWhenFalse),
                    ("on", true.omittedWhenFalse)])
        #expect(record.text == #"{"kind":"image","id":"a","size":2,"ok":true,"w":0.5,"n":null,"text":"t","kept":7,"on":true}"#)
    }

    @Test func keepsUnknownFieldsInOrderWhenChanged() throws {
        let record = try JSONRecord.parse(#"{"z":1,"kind":"gif","section":"spiders","nested":{"b":[1,"x",null],"a":false}}"#)
        record.set("kind", "image")
        record.set("path", "/c/x.gif")
        #expect(record.text == #"{"z":1,"kind":"image","section":"spiders","nested":{"b":[1,"x",null],"a":false},"path":"/c/x.gif"}"#)
    }

    @Test func writesRealsWithTheFewestDigitsThatReadBack() throws {
        let record = try JSONRecord.parse(#"{"a":0.1,"b":0.30000000000000004,"c":1.0,"d":-2.5e-7,"e":1e300}"#)
        #expect(record.text == #"{"a":0.1,"b":0.30000000000000004,"c":1.0,"d":-2.5e-07,"e":1e+300}"#)
    }

    @Test func escapesControlCharactersAndKeepsUTF8() throws {
        let record = try JSONRecord.parse(#"{"t":"a\u001b[31m\"\\/é\n\t"}"#)
        #expect(record.text == #"{"t":"a\u001b[31m\"\\/é\n\t"}"#)
        #expect(record.string("t") == "a\u{1B}[31m\"\\/é\n\t")
    }

    @Test func setsNullsBooleansAndOptionalIntegers() {
        let record = JSONRecord()
        record.set("a", nil as Int?)
        record.set("b", 7 as Int?)
        record.set("c", false)
        record.set("d", "")
        record.remove("b")
        #expect(record.text == #"{"a":null,"c":false,"d":""}"#)
        #expect(record.keys == ["a", "c", "d"])
    }
}

@Suite struct JSONRecordNestingTests {
    @Test func setsNestedObjectsRealsAndOptionals() {
        let record = JSONRecord()
        let inner = record.setObject("best")
        inner.set("round", 3)
        inner.set("mean", 4.5)
        record.set("whole", 7.0)
        record.set("nan", Double.nan)
        record.set("name", nil as String?)
        record.set("flag", true as Bool?)
        #expect(record.text == #"{"best":{"round":3,"mean":4.5},"whole":7.0,"nan":null,"name":null,"flag":true}"#)
    }

    @Test func setsAnOptionalObjectOrNull() {
        let record = JSONRecord()
        record.setObject("trend", 5 as Int?) { object, window in object.set("window", window) }
        record.setObject("best", nil as Int?) { object, _ in object.set("never", true) }
        #expect(record.text == #"{"trend":{"window":5},"best":null}"#)
    }

    @Test func jsonTextIsTheMemberAsWritten() throws {
        let record = try JSONRecord.parse(#"{"id":9007199254740993,"s":"a\"b","o":{"m":[1,2.5]},"n":null}"#)
        #expect(record.jsonText("id") == "9007199254740993")
        #expect(record.jsonText("s") == #""a\"b""#)
        #expect(record.jsonText("o") == #"{"m":[1,2.5]}"#)
        #expect(record.jsonText("n") == "null")
        #expect(record.jsonText("missing") == nil)
    }

    /// Defect 5 of "Hostile input, third pass": one integer past 2^63 or a
    /// `1e400`, anywhere in an API's answer, made jansson refuse the whole
    /// answer ("not a JSON object"). `parseAnswer` reads it: such an integer
    /// as a real, a number past a double as null, and every other integer
    /// exact (Klipy's 16-digit ids); strings that look like numbers untouched.
    @Test func anAnswerWithNumbersPastWhatJanssonHoldsIsStillRead() throws {
        let text = #"{"id":1149612604962814,"big":99999999999999999999,"neg":-99999999999999999999,"huge":1e400,"tiny":-1E+400,"s":"1e400 \"99999999999999999999\"","list":[18446744073709551616,2],"ok":1.5,"max":9223372036854775807}"#
        #expect(throws: JSONRecord.ParseError.self) { try JSONRecord.parse(text) }
        let (record, numbers) = try JSONRecord.parseAnswer(Array(text.utf8))
        #expect(record.jsonText("id") == "1149612604962814", "an integer jansson holds stays exact")
        #expect(record.double("big") == 1e20 && record.int("big") == nil)
        #expect(record.double("neg") == -1e20)
        #expect(record.jsonText("huge") == "null" && record.jsonText("tiny") == "null")
        #expect(record.string("s") == #"1e400 "99999999999999999999""#, "a string is left alone")
        #expect(record.jsonText("list") == "[1.8446744073709552e+19,2]")
        #expect(record.double("ok") == 1.5)
        #expect(record.int("max") == Int.max)
        #expect(numbers == ["99999999999999999999", "-99999999999999999999", "1e400"], "the first three, as written")

        let plain = try JSONRecord.parseAnswer(Array(#"{"a":1}"#.utf8))
        #expect(plain.outOfRange.isEmpty && plain.record.int("a") == 1)
    }

    /// Defect 5, its other half: an answer that is still not JSON once its
    /// numbers are read says its own fault, in jansson's words, not the number's.
    @Test func anAnswerThatIsNotJSONSaysItsOwnFault() throws {
        for text in [#"{"a":1e400,"b":}"#, "<html>maintenance</html>", "[1e999]"] {
            do {
                _ = try JSONRecord.parseAnswer(Array(text.utf8))
                Issue.record("\(text) read")
            } catch {
                #expect(!error.isNumberOutOfRange, "\(text): \(error.message)")
                #expect(!error.message.contains("overflow") && !error.message.contains("too big"), "\(text): \(error.message)")
            }
        }
    }

    /// Defect 9 of "Hostile input, third pass": a key echoed in a good
    /// answer reached the records and the API cache. `rewriteStrings` reaches
    /// every string, nested, in arrays and as member names, however it was
    /// escaped, and keeps the members' order.
    @Test func rewritesEveryStringNamesTooInPlace() throws {
        let record = try JSONRecord.parse(#"{"a":"x s3cret y","n":5,"list":["s3cret",{"deep":"\u0073\u0033cret"}],"s3cret":true,"z":"plain"}"#)
        let changed = record.rewriteStrings { $0.replacingOccurrences(of: "s3cret", with: "MASKED") }
        #expect(changed)
        #expect(record.text == #"{"a":"x MASKED y","n":5,"list":["MASKED",{"deep":"MASKED"}],"MASKED":true,"z":"plain"}"#)
        #expect(!record.rewriteStrings { $0 }, "nothing to change")
        let empty = try JSONRecord.parse(#"{"k":"gone"}"#)
        #expect(empty.rewriteStrings { $0 == "gone" || $0 == "k" ? "" : $0 })
        #expect(empty.text == #"{"":""}"#)
    }
}
