/// A strict, allocation-free check that a line is one JSON object, which also
/// reads its top-level `kind`, so records a stage only passes on are never
/// built into a jansson tree (that costs microseconds a record; this costs
/// nanoseconds). Anything unusual says ``Verdict/parse``: the caller then
/// parses with jansson, which stays the authority on what JSON is.
public enum JSONScan {
    /// What a scan found.
    public enum Verdict: Equatable, Sendable {
        /// A JSON object; its top-level `kind` when that is a plain string.
        case object(kind: String?)
        /// Not certain: parse with jansson (invalid, or a case jansson treats specially).
        case parse
    }

    /// Scans `line` (without its newline).
    public static func scan(_ line: UnsafeRawBufferPointer) -> Verdict {
        var scanner = Scanner(bytes: line)
        return scanner.object()
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        var depth = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func object() -> Verdict {
            skipSpace()
            guard peek() == UInt8(ascii: "{") else { return .parse }
            index += 1
            var kind: String?
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    skipSpace()
                    guard let key = string(), !key.escaped else { return .parse }
                    skipSpace()
                    guard peek() == UInt8(ascii: ":") else { return .parse }
                    index += 1
                    skipSpace()
                    let isKind = key.count == 4 && bytes[key.start] == 0x6B && bytes[key.start + 1] == 0x69
                        && bytes[key.start + 2] == 0x6E && bytes[key.start + 3] == 0x64
                    if isKind {
                        if peek() == UInt8(ascii: "\"") {
                            guard let value = string(), !value.escaped else { return .parse }
                            kind = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value.start..<(value.start + value.count)]), as: UTF8.self)
                        } else {
                            guard self.value() else { return .parse }
                            kind = nil
                        }
                    } else {
                        guard self.value() else { return .parse }
                    }
                    skipSpace()
                    if peek() == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard peek() == UInt8(ascii: "}") else { return .parse }
                    index += 1
                    break
                }
            }
            skipSpace()
            return index == bytes.count ? .object(kind: kind) : .parse
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// Any JSON value; false when it is not one (or is one jansson may refuse).
        mutating func value() -> Bool {
            guard let byte = peek() else { return false }
            switch byte {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["): return container()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func container() -> Bool {
            depth += 1
            defer { depth -= 1 }
            guard depth < 512 else { return false }
            let open = bytes[index]
            let close: UInt8 = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipSpace()
            if peek() == close {
                index += 1
                return true
            }
            while true {
                skipSpace()
                if open == UInt8(ascii: "{") {
                    guard string() != nil else { return false }
                    skipSpace()
                    guard peek() == UInt8(ascii: ":") else { return false }
                    index += 1
                    skipSpace()
                }
                guard value() else { return false }
                skipSpace()
                guard let next = peek() else { return false }
                index += 1
                if next == close { return true }
                guard next == UInt8(ascii: ",") else { return false }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// Numbers as JSON writes them; very long integers and exponents are
        /// left to jansson, which refuses what overflows.
        mutating func number() -> Bool {
            let start = index
            if peek() == UInt8(ascii: "-") { index += 1 }
            guard let first = peek(), (0x30...0x39).contains(first) else { return false }
            if first == 0x30 {
                index += 1
            } else {
                while let digit = peek(), (0x30...0x39).contains(digit) { index += 1 }
            }
            var integer = true
            if peek() == UInt8(ascii: ".") {
                integer = false
                index += 1
                guard let digit = peek(), (0x30...0x39).contains(digit) else { return false }
                while let digit = peek(), (0x30...0x39).contains(digit) { index += 1 }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                integer = false
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                let digits = index
                while let digit = peek(), (0x30...0x39).contains(digit) { index += 1 }
                guard index > digits, index - digits <= 2 else { return false }
            }
            return integer ? index - start <= 18 : index - start <= 40
        }

        /// A string's content (after the quote) and whether it had escapes.
        struct Span {
            var start: Int
            var count: Int
            var escaped: Bool
        }

        /// A string with valid UTF-8 and escapes (jansson refuses `\u0000`, so that is left to it).
        mutating func string() -> Span? {
            guard peek() == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let span = Span(start: start, count: index - start, escaped: escaped)
                    index += 1
                    return span
                case UInt8(ascii: "\\"):
                    escaped = true
                    index += 1
                    guard let next = peek() else { return nil }
                    switch next {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        // \uXXXX; surrogates and \u0000 are jansson's to judge.
                        guard index + 4 < bytes.count else { return nil }
                        var value = 0
                        for offset in 1...4 {
                            guard let digit = hexValue(bytes[index + offset]) else { return nil }
                            value = value << 4 | digit
                        }
                        if value == 0 || (0xD800...0xDFFF).contains(value) { return nil }
                        index += 5
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                case 0x80...:
                    guard utf8Sequence() else { return nil }
                default:
                    index += 1
                }
            }
            return nil
        }

        /// One well-formed multi-byte UTF-8 sequence (no overlongs, surrogates or values past U+10FFFF).
        mutating func utf8Sequence() -> Bool {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard index + length <= bytes.count else { return false }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
            return true
        }

        func hexValue(_ byte: UInt8) -> Int? {
            switch byte {
            case 0x30...0x39: return Int(byte - 0x30)
            case 0x41...0x46: return Int(byte - 0x41 + 10)
            case 0x61...0x66: return Int(byte - 0x61 + 10)
            default: return nil
            }
        }
    }
}
