import Glibc

extension JSONRecord {
    /// A JSON object from a remote answer, read whatever numbers it holds.
    ///
    /// jansson refuses a whole document for one number it cannot hold (an
    /// integer past 64 bits, a real past a double), so one such number in a
    /// field nobody reads would lose a page of results. Here such a number is
    /// read as a real when a double holds it (as `JSON_DECODE_INT_AS_REAL`
    /// would, but only for it: the other integers stay exact, Klipy's 16-digit
    /// ids among them) and as null past a double's range (`1e400`).
    /// `outOfRange` holds those numbers as written (the first few, cut), for
    /// messages; it is empty for an answer jansson read as it is.
    public static func parseAnswer(_ bytes: [UInt8]) throws(ParseError) -> (record: JSONRecord, outOfRange: [String]) {
        do {
            return (try parse(bytes), [])
        } catch {
            guard error.isNumberOutOfRange, let tamed = OutOfRangeNumbers(bytes), !tamed.numbers.isEmpty else { throw error }
            // A document that still fails says its other fault.
            return (try parse(tamed.bytes), tamed.numbers)
        }
    }
}

/// The numbers of a JSON text that jansson cannot hold, rewritten: an integer
/// past 64 bits as a real (`…​.0`), a number past a double's range as `null`.
/// Strings are left alone; a text that is not JSON stays as invalid as it was.
struct OutOfRangeNumbers {
    /// The text with those numbers rewritten.
    var bytes: [UInt8] = []
    /// The numbers rewritten, as written (the first ``kept``, each cut to 40 bytes).
    var numbers: [String] = []
    /// How many numbers were rewritten in all.
    var count = 0
    static let kept = 3

    /// Rewrites `text`; nil when it holds no number to rewrite.
    init?(_ text: [UInt8]) {
        bytes.reserveCapacity(text.count + 8)
        var index = 0
        var inString = false
        while index < text.count {
            let byte = text[index]
            if inString {
                bytes.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < text.count {
                    bytes.append(text[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) {
                var end = index
                while end < text.count, Self.isNumberByte(text[end]) { end += 1 }
                let token = text[index..<end]
                bytes += rewritten(token)
                index = end
                continue
            }
            bytes.append(byte)
            index += 1
        }
        guard count > 0 else { return nil }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// `token` as jansson can read it, counting it when it changes.
    private mutating func rewritten(_ token: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let text = String(decoding: token, as: UTF8.self)
        let digits = token.drop { $0 == UInt8(ascii: "-") }
        let isInteger = !digits.isEmpty && digits.allSatisfy { (0x30...0x39).contains($0) } && token.first != UInt8(ascii: "+")
        if isInteger && Int64(text) != nil { return token }
        var end: UnsafeMutablePointer<CChar>?
        let value = text.withCString { start in
            let value = strtod(start, &end)
            // Not all of it a number: left for jansson to refuse in its words.
            return end.map { $0 - UnsafeMutablePointer(mutating: start) } == token.count ? value : nil
        }
        guard let value, isInteger || !value.isFinite else { return token }
        count += 1
        if numbers.count < Self.kept { numbers.append(String(text.prefix(40)) + (text.count > 40 ? "…" : "")) }
        return value.isFinite ? token + Array(".0".utf8) : ArraySlice("null".utf8)
    }
}
