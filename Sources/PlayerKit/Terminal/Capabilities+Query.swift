import FoundationEssentials
import GIFEngine
import Glibc
import SposureKit

extension Capabilities {
    /// The kitty graphics query ids: 31 asks for graphics, 32 whether the terminal reads our files.
    static let graphicsQuery = 31, filesQuery = 32

    /// How long the probe waits for the device attributes; and how long in
    /// all when the environment names a terminal that shows pixels (a kitty
    /// starting up answers late: issue 29 #7).
    public static let firstWaitMs = 300, longestWaitMs = 2000

    /// `bytes` wrapped for tmux's passthrough (`ESC P tmux; … ESC \`, each ESC doubled).
    static func tmuxWrapped(_ bytes: String) -> String {
        var wrapped = "\u{1B}Ptmux;"
        for character in bytes { wrapped += character == "\u{1B}" ? "\u{1B}\u{1B}" : String(character) }
        return wrapped + "\u{1B}\\"
    }

    /// The probe's bytes. Outside tmux: the kitty keyboard flags, the kitty
    /// graphics queries (the second with `file`, base64, when given),
    /// XTVERSION, XTSMGRAPHICS, DECRQSS of a 24-bit colour set just before
    /// (then reset), XTGETTCAP `RGB`, the cell and window sizes, and the
    /// device attributes last. Inside tmux (`insideTmux`) nothing that tmux
    /// would take for itself: tmux reads an APC as a pane title (issue 29
    /// #3), so kitty's queries go only wrapped for the passthrough, when it
    /// is on (`passthrough`), with XTVERSION, the cell size and the device
    /// attributes again for the terminal outside, asked last.
    static func probeBytes(insideTmux: Bool, passthrough: Bool, file: String?) -> String {
        let graphics = "\u{1B}_Gi=\(graphicsQuery),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        let colour = "\u{1B}[38;2;1;2;3m\u{1B}P$qm\u{1B}\\\u{1B}[0m"  // set, read back, reset
        let termcap = "\u{1B}P+q524742\u{1B}\\"  // XTGETTCAP RGB
        var queries = "\u{1B}[?u"  // kitty keyboard flags
        if !insideTmux {
            queries += graphics
            if let file { queries += "\u{1B}_Gi=\(filesQuery),s=1,v=1,a=q,t=t,f=24;\(file)\u{1B}\\" }
        }
        queries += "\u{1B}[>0q"  // XTVERSION (inside tmux: tmux's own)
        queries += "\u{1B}[?1;1;0S\u{1B}[?2;1;0S"  // XTSMGRAPHICS: colour registers, largest sixel image
        queries += colour + termcap
        queries += "\u{1B}[16t\u{1B}[14t"  // the cell and the text area in pixels
        queries += "\u{1B}[c"  // device attributes: its reply ends the wait
        if insideTmux && passthrough {
            // The terminal outside, through tmux: answered after tmux's own replies.
            queries += tmuxWrapped(graphics + "\u{1B}[16t" + "\u{1B}[>0q" + "\u{1B}[c")
        }
        return queries
    }

    /// Sends every query at once and reads the replies until the device
    /// attributes (which every terminal answers, and which are asked last)
    /// arrive, or 300 ms pass: a terminal that answers nothing costs that
    /// wait once, and never hangs the player. Where the environment names a
    /// terminal that shows pixels (kitty, WezTerm, iTerm2…), a late answer
    /// is waited for up to 2 s. Inside tmux with passthrough, the terminal
    /// outside answers too: its device attributes end the wait.
    public static func query(_ terminal: Terminal, environment: [String: String] = ProcessInfo.processInfo.environment) -> Capabilities {
        var answers = Capabilities()
        answers.tmux = Tmux.ask(environment: environment)
        answers.pixelTerminalHint = pixelTerminalHint(environment)
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let passthrough = answers.tmux?.passthrough == true
        let probeFile = insideTmux ? nil : KittyFile.probe()
        terminal.write(probeBytes(insideTmux: insideTmux, passthrough: passthrough, file: probeFile?.base64))
        let size = terminal.size()
        var parser = InputParser()
        let started = monotonicSeconds()
        var attributes = 0
        let expected = insideTmux && passthrough ? 2 : 1
        reading: while true {
            let waited = Int((monotonicSeconds() - started) * 1000)
            let limit = answers.pixelTerminalHint != nil ? longestWaitMs : firstWaitMs
            if waited >= limit { break }
            for event in parser.feed(terminal.read(timeoutMs: 50)) {
                if case .deviceAttributes = event {
                    attributes += 1
                    if attributes == 1 { answers.take(event) }  // tmux's, when inside it: sixel is its
                    if attributes >= expected { break reading }
                    continue
                }
                answers.take(event, insideTmux: insideTmux)
            }
        }
        let waited = Int((monotonicSeconds() - started) * 1000)
        answers.waitedLongerMs = max(0, waited - firstWaitMs)
        if answers.cellPixels == nil, let window = answers.windowPixels, let size {
            answers.cellPixels = CellSize(width: window.width / size.cols, height: window.height / size.rows)
        }
        probeFile?.remove()  // the terminal deletes it when it reads it; not all do
        return answers
    }

    /// Takes one reply of the probe. Inside tmux (`insideTmux`), a kitty
    /// graphics reply and a name that is not tmux's come from the terminal
    /// outside, through the passthrough.
    public mutating func take(_ event: InputEvent, insideTmux: Bool = false) {
        switch event {
        case .kittyKeyboard: kittyKeyboard = true
        case .kittyGraphics(let id, let ok) where id == Self.graphicsQuery: kittyGraphics = ok
        case .kittyGraphics(let id, let ok) where id == Self.filesQuery: kittyFiles = ok
        case .terminalName(let text):
            let clean = RemoteText.strip(text)
            if insideTmux && !clean.lowercased().hasPrefix("tmux") { outerName = clean } else { name = clean }
        case .graphicsAttribute(1, 0, let values) where !values.isEmpty: sixelColors = values[0]
        case .graphicsAttribute(2, 0, let values) where values.count >= 2:
            sixelMaxSize = CellSize(width: values[0], height: values[1])
        case .cellPixels(let width, let height): cellPixels = CellSize(width: width, height: height)
        case .windowPixels(let width, let height): windowPixels = CellSize(width: width, height: height)
        case .statusString(let setting):
            // `0;38:2::1:2:3m` (xterm) or `0;38;2;1;2;3m`: the colour kept its 24 bits.
            guard let setting else { directColor = false; return }
            directColor = ["38:2::1:2:3", "38:2:1:2:3", "38;2;1;2;3"].contains(where: setting.contains)
        case .termcap(let name, let value) where name == "RGB" || name == "Tc":
            termcapRGB = value != nil
        case .deviceAttributes(let attributes):
            answered = true
            sixel = attributes.dropFirst().contains(4)
        default: break
        }
    }

    /// The environment variable that names a terminal showing pixels, when
    /// one does: such a terminal answers the probe, if perhaps late.
    static func pixelTerminalHint(_ environment: [String: String]) -> String? {
        if let id = environment["KITTY_WINDOW_ID"], !id.isEmpty { return "KITTY_WINDOW_ID" }
        if let pane = environment["WEZTERM_PANE"], !pane.isEmpty { return "WEZTERM_PANE" }
        if let program = environment["TERM_PROGRAM"],
           ["iTerm.app", "WezTerm", "ghostty", "mintty", "konsole"].contains(program) { return "TERM_PROGRAM=\(program)" }
        if let term = environment["TERM"], ["xterm-kitty", "xterm-ghostty", "foot", "wezterm", "mlterm"].contains(term) {
            return "TERM=\(term)"
        }
        return nil
    }
}
