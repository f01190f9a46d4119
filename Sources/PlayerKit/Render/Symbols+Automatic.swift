extension Symbols {
    /// The finest set the terminal is known to draw (docs/terminals.md has
    /// the table and its sources): octants only where the terminal is known
    /// to draw U+1CD00–U+1CDE5 and the ten older quarter blocks they lean on,
    /// sextants where it is known to draw U+1FB00–U+1FB3B, else quadrants,
    /// which every terminal with a font of Block Elements shows.
    ///
    /// `terminal` is the terminal's name and version as its XTVERSION answer
    /// gives it (`kitty(0.39.1)`, `WezTerm 20240203-110809-5046fc22`,
    /// `foot(1.16.2)`, `XTerm(388)`, `iTerm2 3.5.0`, `ghostty 1.1.0`), nil
    /// when it did not answer; then `TERM_PROGRAM` (and its version in
    /// `TERM_PROGRAM_VERSION`), `KITTY_WINDOW_ID`, `WT_SESSION`, `VTE_VERSION`
    /// and `TERM` say what they can. Inside tmux (`TMUX` set) the XTVERSION
    /// answer is tmux's own, and tmux passes the characters through to the
    /// outer terminal: that terminal's `TERM_PROGRAM` is often hidden, so
    /// only what is still known of it counts, else quadrants.
    public static func automatic(terminal: String?, environment: [String: String]) -> Symbols {
        let inTmux = environment["TMUX"].map { !$0.isEmpty } ?? false
        if let terminal, let known = known(terminal: terminal) {
            return known
        }
        if let program = environment["TERM_PROGRAM"], program != "tmux", program != "screen",
           let known = known(terminal: program + " " + (environment["TERM_PROGRAM_VERSION"] ?? "")) {
            return known
        }
        // Variables the outer terminal sets survive into tmux; its version does not.
        if environment["KITTY_WINDOW_ID"] != nil { return .sextant }
        if environment["WEZTERM_PANE"] != nil { return .sextant }
        if inTmux { return .quad }
        let term = environment["TERM"] ?? ""
        if ["xterm-kitty", "foot", "wezterm", "xterm-ghostty"].contains(where: term.hasPrefix) { return .sextant }
        return .quad
    }

    /// What a terminal of this name and version (an XTVERSION answer, or
    /// `TERM_PROGRAM` and its version) draws; nil when the name is not known.
    static func known(terminal: String) -> Symbols? {
        let name = terminal.lowercased()
        let version = Version(in: terminal)
        func atLeast(_ wanted: [Int]) -> Bool { version.map { $0.isAtLeast(wanted) } ?? false }
        switch name {
        case let name where name.hasPrefix("kitty"):
            // Octants drawn by kitty itself from 0.40, the four one-corner
            // quarter blocks (U+1CEA0…) from 0.47; sextants from 0.19.
            return atLeast([0, 47]) ? .octant : atLeast([0, 19]) ? .sextant : .quad
        case let name where name.hasPrefix("ghostty"):
            // Octants from 1.1.1, the one-corner quarter blocks from 1.2.0.
            return atLeast([1, 2]) ? .octant : .sextant
        case let name where name.hasPrefix("wezterm"):
            // Dated builds: sextants from 20210814; octants only in nightly
            // builds (the last release, 20240203, has none).
            return atLeast([20_250_101]) ? .octant : atLeast([20_210_814]) ? .sextant : .quad
        case let name where name.hasPrefix("foot"):
            return .sextant
        case let name where ["iterm", "vscode", "apple_terminal", "mintty", "xterm"].contains(where: name.hasPrefix):
            return .quad
        default:
            return nil
        }
    }

    /// The first run of dot-separated numbers in a name (`kitty(0.39.1)`: 0, 39, 1).
    private struct Version {
        var parts: [Int]

        init?(in text: String) {
            var parts: [Int] = [], current: Int?
            for character in text {
                if let digit = character.wholeNumberValue, character.isASCII {
                    current = (current ?? 0) &* 10 &+ digit
                } else if let number = current {
                    parts.append(number)
                    current = nil
                    if character != "." { break }
                } else if !parts.isEmpty {
                    break
                }
            }
            if let current { parts.append(current) }
            guard !parts.isEmpty else { return nil }
            self.parts = parts
        }

        func isAtLeast(_ wanted: [Int]) -> Bool {
            for (index, want) in wanted.enumerated() {
                let have = index < parts.count ? parts[index] : 0
                if have != want { return have > want }
            }
            return true
        }
    }
}
