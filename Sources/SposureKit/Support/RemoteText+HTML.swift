extension RemoteText {
    /// HTML from far away (a Wikimedia Commons file's `Artist`, its
    /// description) as the plain text a person reads: tags dropped (a
    /// `script` or `style` element with all it holds), entities decoded,
    /// invisible characters (soft hyphens, zero-width spaces and joiners, byte
    /// order marks) removed, then ``strip(_:)``, at most `limit` characters
    /// (`…` marks a cut).
    public static func plainText(html: String, limit: Int = 300) -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(html.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                switch skipTag(&scalars) {
                case nil: out.append(scalar)  // a `<` that starts no tag ("a < b") is text
                case true?: out.append(" ")
                case false?: break
                }
            case "&":
                out.append(contentsOf: decodeEntity(&scalars).unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        let visible = String(String.UnicodeScalarView(out.filter { !isInvisible($0) }))
        return clean(visible, limit: limit)
    }

    /// Characters that show as nothing: they would hide a word from an avoid list, or split one on screen.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x034F, 0x180E, 0x200B...0x200D, 0x2060...0x2064, 0xFEFF: return true
        default: return false
        }
    }

    /// Skips a tag whose `<` was taken (an element that runs code or styles:
    /// up to its end tag); true when it breaks a line (a space stands for it),
    /// nil when the `<` starts no tag (it is kept as text).
    private static func skipTag(_ scalars: inout ArraySlice<Unicode.Scalar>) -> Bool? {
        guard let first = scalars.first, first.properties.isAlphabetic || first == "/" || first == "!" || first == "?" else {
            return nil
        }
        let name = String(String.UnicodeScalarView(scalars.drop { $0 == "/" }.prefix { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
            .lowercased()
        guard let close = scalars.firstIndex(of: ">") else {
            scalars.removeAll()
            return false
        }
        let closing = first == "/"
        scalars = scalars[scalars.index(after: close)...]
        if !closing && ["script", "style", "template", "noscript"].contains(name) {
            // Up to `</name`, then its `>`; an element never closed takes the rest.
            let end = Array("</\(name)".unicodeScalars)
            var index = scalars.startIndex
            while index < scalars.endIndex {
                if scalars[index] == "<", scalars[index...].prefix(end.count).map({ String($0).lowercased() }) == end.map({ String($0) }) {
                    scalars = scalars[index...]
                    if let gt = scalars.firstIndex(of: ">") { scalars = scalars[scalars.index(after: gt)...] } else { scalars.removeAll() }
                    return false
                }
                index += 1
            }
            scalars.removeAll()
            return false
        }
        return ["br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt"].contains(name)
    }

    /// The character of an entity whose `&` was taken; `&` itself when none follows.
    private static func decodeEntity(_ scalars: inout ArraySlice<Unicode.Scalar>) -> String {
        let body = scalars.prefix(32).prefix { $0 != ";" && $0 != "&" && $0 != "<" && !$0.properties.isWhitespace }
        guard body.count < 32, scalars.dropFirst(body.count).first == ";" else { return "&" }
        let name = String(String.UnicodeScalarView(body))
        let decoded: String?
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
        } else if name.hasPrefix("#") {
            decoded = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String($0) }
        } else {
            decoded = entities[name]
        }
        guard let decoded else { return "&" }
        scalars = scalars.dropFirst(body.count + 1)
        // A NUL or a surrogate is nothing a person reads.
        return decoded == "\u{0}" ? "" : decoded
    }

    /// The named entities that Commons' metadata uses (MediaWiki writes the others as numbers).
    private static let entities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "shy": "\u{AD}",
        "ndash": "–", "mdash": "—", "hellip": "…", "copy": "©", "reg": "®", "trade": "™", "middot": "·",
        "laquo": "«", "raquo": "»", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "bull": "•",
        "zwj": "\u{200D}", "zwnj": "\u{200C}", "lrm": "\u{200E}", "rlm": "\u{200F}", "deg": "°", "times": "×",
        "eacute": "é", "egrave": "è", "aacute": "á", "agrave": "à", "oacute": "ó", "uuml": "ü", "ouml": "ö", "auml": "ä",
        "ccedil": "ç", "ntilde": "ñ", "szlig": "ß", "iacute": "í", "uacute": "ú", "ecirc": "ê", "acirc": "â",
    ]
}
