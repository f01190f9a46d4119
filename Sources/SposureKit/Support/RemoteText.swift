/// Text that came from far away (titles, sections, queries, error codes, the
/// lines of a bad record) made safe to print: the one sanitizer every tool uses.
///
/// ``strip(_:)`` and ``clean(_:limit:)`` remove what a terminal would act on,
/// escape sequences whole (not just their ESC, which would leave `[31m` or
/// `]52;c;…` behind); ``visible(_:)`` keeps every character but shows controls
/// as `\u{…}`, for messages where the exact text matters.
public enum RemoteText {
    /// `text` with nothing a terminal would act on: escape sequences removed
    /// whole, control characters and bidi controls dropped, white space folded
    /// to single spaces, none at either end.
    public static func strip(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        var lastSpace = true
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x1B:
                skipEscape(after: &scalars)
            case 0x9B:  // C1 CSI
                skipCSI(&scalars)
            case 0x9D, 0x90, 0x9E, 0x9F, 0x98:  // C1 OSC, DCS, PM, APC, SOS: up to the terminator
                skipString(&scalars)
            case 0x09, 0x0A, 0x0D, 0x20, 0x85:
                if !lastSpace { out.append(" ") }
                lastSpace = true
            case _ where isTerminalControl(scalar):
                continue
            default:
                if scalar.properties.isWhitespace {
                    if !lastSpace { out.append(" ") }
                    lastSpace = true
                } else {
                    out.append(scalar)
                    lastSpace = false
                }
            }
        }
        var result = String(out)
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }

    private static func skipEscape(after scalars: inout ArraySlice<Unicode.Scalar>) {
        guard let next = scalars.first else { return }
        switch next {
        case "[":
            scalars.removeFirst()
            skipCSI(&scalars)
        case "]", "P", "^", "_", "X":
            scalars.removeFirst()
            skipString(&scalars)
        default:
            // A two-character escape (ESC 7, ESC c, ESC ( B…): drop its intermediates and final.
            while let byte = scalars.first, (0x20...0x2F).contains(byte.value) { scalars.removeFirst() }
            if let final = scalars.first, (0x30...0x7E).contains(final.value) { scalars.removeFirst() }
        }
    }

    /// Parameters and intermediates, then one final byte.
    private static func skipCSI(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        while let scalar = scalars.popFirst() {
            if (0x40...0x7E).contains(scalar.value) { return }
            if !(0x20...0x3F).contains(scalar.value) { return }
        }
    }

    /// Up to BEL, ESC \ or ST.
    private static func skipString(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        while let scalar = scalars.popFirst() {
            if scalar.value == 0x07 || scalar.value == 0x9C { return }
            if scalar.value == 0x1B {
                if scalars.first == "\\" { scalars.removeFirst() }
                return
            }
        }
    }

    /// ``strip(_:)``, then at most `limit` characters (`…` marks a cut).
    public static func clean(_ text: String, limit: Int = 40) -> String {
        let folded = strip(text)
        guard folded.count > limit, limit > 1 else { return folded }
        return String(folded.prefix(limit - 1)) + "…"
    }

    /// `text` with what a terminal would act on (C0, DEL and C1 controls, and
    /// the bidi controls that reorder what follows) shown as `\u{…}` escapes, so
    /// text from a file, the environment or the network cannot move the
    /// cursor, change the terminal, or make itself read as something else.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isTerminalControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isTerminalControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether a terminal acts on `scalar` rather than shows it: C0 and C1
    /// controls, DEL, and the bidi controls that reorder what follows.
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
