/// Text that came from the stream (section names, queries, error codes) made
/// safe to print: no control characters, no bidi overrides, one line, cut short.
public enum RemoteText {
    /// `text` with control characters and bidi controls removed, white space
    /// folded to single spaces, and at most `limit` characters (`…` marks a cut).
    public static func clean(_ text: String, limit: Int = 40) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                pendingSpace = !out.isEmpty
                continue
            }
            if isControl(scalar) || isBidi(scalar) { continue }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(scalar)
        }
        let folded = String(out)
        guard folded.count > limit, limit > 1 else { return folded }
        return String(folded.prefix(limit - 1)) + "…"
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isBidi(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
