import Testing
@testable import SposureKit

/// The scan may only ever say "an object" where jansson agrees, with the same kind.
@Suite struct JSONScanTests {
    func scan(_ text: String) -> JSONScan.Verdict {
        Array(text.utf8).withUnsafeBytes { JSONScan.scan($0) }
    }

    func jansson(_ text: String) -> JSONRecord? { try? JSONRecord.parse(text) }

    @Test(arguments: [
        #"{"kind":"note","n":1}"#,
        #"{}"#,
        #" { "a" : [ 1 , -2.5e-3 , true , false , null , { "b" : "c" } ] , "kind" : "x" } "#,
        #"{"kind":"é ✓ 𝄞","t":"tab\tescaped \" \\ \/ \u00e9"}"#,
        #"{"kind":1}"#,
        #"{"kind":"a","kind":"b"}"#,
    ])
    func acceptsObjectsJanssonAccepts(_ line: String) throws {
        guard case .object(let kind) = scan(line) else {
            Issue.record("scan refused a valid object: \(line)")
            return
        }
        let record = try #require(jansson(line))
        #expect(kind == record.kind)
    }

    @Test(arguments: [
        "", "[]", "\"text\"", "42", "{", "{\"a\":1,}", "{\"a\" 1}", "{'a':1}", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":.5}", "{\"a\":tru}", "{\"a\":\"\u{01}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":1} x",
        "{\"a\":[1,2}", "{\"a\":\"\\u0000\"}", "{\"a\":\"\\ud800\"}", "{\"a\":123456789012345678901234}",
        "{\"a\":1e999}", "{\"k\\u0069nd\":\"gif\"}", "{\"kind\":\"g\\u0069f\"}", "{\"a\":NaN}",
    ])
    func leavesEverythingElseToJansson(_ line: String) {
        #expect(scan(line) == .parse)
    }

    @Test func refusesInvalidUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let line = Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(line.withUnsafeBytes { JSONScan.scan($0) } == .parse)
        }
    }

    @Test func neverAcceptsWhatJanssonRefusesUnderMutation() {
        // Every single-byte change of a few valid lines: whenever the scan says
        // "object", jansson must parse it too, with the same kind.
        let seeds = [#"{"kind":"note","n":-12.5e3,"a":[true,null,{"x":"y\n"}],"s":"é"}"#, #"{"kind":"gif","url":"https://x/a.gif?cid=1"}"#]
        let replacements: [UInt8] = Array("{}[]\":,.-+eE0129tfnul\\ /x".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var checked = 0
        for seed in seeds {
            let bytes = Array(seed.utf8)
            for position in bytes.indices {
                for replacement in replacements {
                    var mutated = bytes
                    mutated[position] = replacement
                    let verdict = mutated.withUnsafeBytes { JSONScan.scan($0) }
                    guard case .object(let kind) = verdict else { continue }
                    checked += 1
                    let record = try? mutated.withUnsafeBytes { try JSONRecord.parse($0) }
                    #expect(record != nil, "scan accepted what jansson refuses: \(String(decoding: mutated, as: UTF8.self))")
                    #expect(record?.kind == kind)
                }
            }
        }
        #expect(checked > 100)
    }
}
