/// Turns the bytes a terminal sends into ``InputEvent``s, across reads.
///
/// Understands xterm SGR mouse reports (`CSI < b;x;y M/m`), kitty keyboard
/// events (`CSI code;mods:kind u`), focus (`CSI I`/`CSI O`), the replies to the
/// capability queries, and plain bytes. A lone ESC is only known to be the Esc
/// key once no more bytes follow: call ``flushPendingEscape()`` after a pause.
public struct InputParser: Sendable {
    private var pending: [UInt8] = []

    /// An empty parser.
    public init() {}

    /// Feeds bytes; returns the events they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if byte != 0x1B {
                events.append(.key(code: UInt32(byte == 0x0D ? 0x0D : byte), kind: .press))
                index += 1
                continue
            }
            guard index + 1 < pending.count else { break }  // maybe the start of a sequence
            let next = pending[index + 1]
            if next == UInt8(ascii: "[") {
                guard let (event, length) = parseCSI(from: index + 2) else { break }
                if let event { events.append(event) }
                index = index + 2 + length
            } else if next == UInt8(ascii: "_") {
                // APC: a kitty graphics reply, up to ESC \.
                guard let end = findStringTerminator(from: index + 2) else { break }
                let body = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
                if let reply = Self.kittyReply(body) { events.append(reply) }
                index = end + 2
            } else if next == UInt8(ascii: "P") {
                // DCS: the replies to XTVERSION (`DCS > | name ST`), DECRQSS
                // (`DCS 1 $ r … ST`) and XTGETTCAP (`DCS 1 + r hex = hex ST`);
                // any other is skipped whole.
                guard let end = findStringTerminator(from: index + 2) else { break }
                if let event = Self.dcsReply(Array(pending[(index + 2)..<end])) { events.append(event) }
                index = end + 2
            } else if next == 0x1B {
                events.append(.key(code: 27, kind: .press))
                index += 1
            } else {
                // Alt+key: report the key.
                events.append(.key(code: UInt32(next), kind: .press))
                index += 2
            }
        }
        pending.removeFirst(index)
        if pending.count > 4096 { pending.removeAll() }  // garbage: never grow without bound
        return events
    }

    /// After a pause with nothing more to read, a lone ESC is the Esc key.
    public mutating func flushPendingEscape() -> [InputEvent] {
        guard pending == [0x1B] else { return [] }
        pending.removeAll()
        return [.key(code: 27, kind: .press)]
    }

    /// Whether bytes wait for the rest of a sequence.
    public var hasPending: Bool { !pending.isEmpty }

    /// Parses a CSI sequence whose parameters start at `start`: the event (nil
    /// for one we ignore) and the bytes after `CSI` it took; nil when incomplete.
    private func parseCSI(from start: Int) -> (InputEvent?, Int)? {
        var index = start
        while index < pending.count {
            let byte = pending[index]
            if (0x40...0x7E).contains(byte) {
                let body = Array(pending[start..<index])
                return (csiEvent(body: body, final: byte), index - start + 1)
            }
            if index - start > 64 { return (nil, index - start + 1) }  // not a sequence we know
            index += 1
        }
        return nil
    }

    private func csiEvent(body: [UInt8], final: UInt8) -> InputEvent? {
        let text = String(decoding: body, as: UTF8.self)
        switch final {
        case UInt8(ascii: "M"), UInt8(ascii: "m"):
            guard text.hasPrefix("<") else { return nil }
            let numbers = text.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3 else { return nil }
            let code = numbers[0]
            if code & (64 | 32) != 0 { return nil }  // wheel, or motion while held: not a press or release
            return .mouse(button: code & 3, x: numbers[1], y: numbers[2], pressed: final == UInt8(ascii: "M"))
        case UInt8(ascii: "u"):
            if text.hasPrefix("?") { return .kittyKeyboard(flags: Int(text.dropFirst()) ?? 0) }
            let fields = text.split(separator: ";", omittingEmptySubsequences: false)
            guard let first = fields.first, let code = UInt32(first.split(separator: ":").first ?? "") else { return nil }
            var kind = KeyEventKind.press
            if fields.count > 1 {
                let modifier = fields[1].split(separator: ":")
                if modifier.count > 1, let raw = Int(modifier[1]), let parsed = KeyEventKind(rawValue: raw) { kind = parsed }
                // Ctrl-C and Ctrl-Z arrive as keys under the kitty protocol:
                // the letter with Ctrl. They stand for their control codes.
                let letters = (c: UInt32(UInt8(ascii: "c")), z: UInt32(UInt8(ascii: "z")))
                if let mods = Int(modifier.first ?? ""), (mods - 1) & 4 != 0, code == letters.c || code == letters.z {
                    return .key(code: code - 96, kind: kind)
                }
            }
            return .key(code: code, kind: kind)
        case UInt8(ascii: "c"):
            guard text.hasPrefix("?") else { return nil }
            return .deviceAttributes(text.dropFirst().split(separator: ";").compactMap { Int($0) })
        case UInt8(ascii: "S"):
            guard text.hasPrefix("?") else { return nil }
            let numbers = text.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard numbers.count >= 2 else { return nil }
            return .graphicsAttribute(item: numbers[0], status: numbers[1], values: Array(numbers.dropFirst(2)))
        case UInt8(ascii: "t"):
            let numbers = text.split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else { return nil }
            switch numbers[0] {
            case 6: return .cellPixels(width: numbers[2], height: numbers[1])
            case 4: return .windowPixels(width: numbers[2], height: numbers[1])
            default: return nil
            }
        case UInt8(ascii: "I"): return body.isEmpty ? .focus(true) : nil
        case UInt8(ascii: "O"): return body.isEmpty ? .focus(false) : nil
        default: return nil
        }
    }

    /// A kitty graphics reply (`G i=31;OK`, `G i=32;ENOENT:…`): its id and whether it says OK.
    private static func kittyReply(_ body: String) -> InputEvent? {
        guard body.hasPrefix("G") else { return nil }
        let parts = body.dropFirst().split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let keys = parts.first?.split(separator: ",") ?? []
        let id = keys.first(where: { $0.hasPrefix("i=") }).flatMap { Int($0.dropFirst(2)) } ?? 0
        return .kittyGraphics(id: id, ok: parts.count > 1 && parts[1] == "OK")
    }

    /// A DCS reply's event (its body between `ESC P` and `ESC \`); nil for one we do not ask.
    static func dcsReply(_ body: [UInt8]) -> InputEvent? {
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        if text.hasPrefix(">|") { return .terminalName(String(text.dropFirst(2).prefix(128))) }
        if text.hasPrefix("1$r") { return .statusString(String(text.dropFirst(3))) }
        if text.hasPrefix("0$r") { return .statusString(nil) }
        if text.hasPrefix("1+r") || text.hasPrefix("0+r") {
            let known = text.hasPrefix("1")
            let fields = text.dropFirst(3).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = fromHex(fields.first ?? "") ?? ""
            guard known else { return .termcap(name: name, value: nil) }
            return .termcap(name: name, value: fields.count > 1 ? fromHex(fields[1]) ?? "" : "")
        }
        return nil
    }

    /// Text from its bytes in hex (XTGETTCAP's names and values); nil when it is not hex.
    private static func fromHex(_ hex: Substring) -> String? {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func findStringTerminator(from start: Int) -> Int? {
        var index = start
        while index + 1 < pending.count {
            if pending[index] == 0x1B && pending[index + 1] == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }
}
