import Glibc

extension String {
    /// `format` filled in as C's printf does (`%.1f`, `%5d`): what Foundation's
    /// `String(format:)` did for the tools, without loading Foundation.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 64)
        var needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = needed < 0 ? "" : String(decoding: buffer.prefix(Int(needed)).map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}

extension String {
    /// The text with every occurrence of `target` replaced, matched byte for
    /// byte in UTF-8: a quote or a key beside a combining mark is still found
    /// (Swift's own `replacing` compares whole characters, and `"` followed by
    /// U+0301 is one character).
    public func replacingBytes(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), pattern = Array(target.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var at = 0
        while at < bytes.count {
            if bytes[at] == pattern[0] && at + pattern.count <= bytes.count && bytes[at..<(at + pattern.count)].elementsEqual(pattern) {
                result += replacement.utf8
                at += pattern.count
            } else {
                result.append(bytes[at])
                at += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs at either end (line ends kept),
    /// as Foundation's `trimmingCharacters(in: .whitespaces)` gave it.
    public func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0.isWhitespace && !$0.isNewline }
        guard let first = firstIndex(where: { !isBlank($0) }),
              let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }

    /// The text without the white space at either end, line ends included,
    /// as Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gave it.
    public func trimmingWhitespaceAndNewlines() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
