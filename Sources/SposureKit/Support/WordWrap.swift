import Glibc

/// Text broken at spaces to fit a terminal (issue 29 #9: the terminal broke
/// long lines mid-word at its edge: `sposure`'s Keys lines, the no-key
/// message, the warnings on stderr).
///
/// Columns are counted as characters, with SGR escapes (`ESC [ … m`, the
/// colours of ``TextStyle``) taking none. Runs of spaces inside a line (the
/// columns of a table) are kept; a word longer than a line (a URL) stands
/// alone on its line, whole, rather than broken.
public enum WordWrap {
    /// `text` in lines of at most `width` columns, broken at spaces; every
    /// line after the first starts with `indent`. `used`: columns the first
    /// line already has before `text` (a `tool: ` prefix).
    public static func lines(_ text: String, width: Int, indent: String = "", used: Int = 0) -> [String] {
        let indentWidth = columns(indent)
        guard width > indentWidth + 10, columns(text) + used > width else { return [text] }
        // The words, each with the spaces before it.
        var tokens: [(spaces: Int, word: Substring)] = []
        var rest = text[...]
        while !rest.isEmpty {
            let spaces = rest.prefix { $0 == " " }.count
            rest = rest.dropFirst(spaces)
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            if !word.isEmpty || tokens.isEmpty { tokens.append((spaces, word)) }
        }
        var lines: [String] = []
        var line = ""
        var lineWidth = used
        for (index, token) in tokens.enumerated() {
            let wordWidth = columns(token.word)
            if index > 0 && lineWidth + token.spaces + wordWidth > width {
                lines.append(line)
                line = indent + token.word
                lineWidth = indentWidth + wordWidth
                continue
            }
            line += String(repeating: " ", count: token.spaces) + token.word
            lineWidth += token.spaces + wordWidth
        }
        lines.append(line)
        return lines
    }

    /// The columns `text` takes on a terminal: its characters, SGR escapes aside.
    public static func columns(_ text: some StringProtocol) -> Int {
        var count = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }

    /// The width of the terminal on `fd`, in columns; nil when `fd` is no terminal.
    public static func terminalColumns(_ fd: Int32) -> Int? {
        guard isatty(fd) == 1 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
