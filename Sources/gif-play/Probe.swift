import ArgumentParser
import SposureCLI
import FoundationEssentials
import Glibc
import PlayerKit
import RecordKit
import SposureKit

/// `gif-play probe`: asks the terminal what it can do, as a round does at its
/// start, and says which renderer and input `gif-play` would use, and why.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask the terminal what it can show, and say which renderer and input a round would use, and why.",
        discussion: """
            Sends the queries a round sends at its start (kitty keyboard, kitty graphics \
            and whether the terminal reads our files, XTVERSION, XTSMGRAPHICS for sixel's \
            colours and size, a 24-bit colour read back (DECRQSS) and XTGETTCAP RGB, the \
            cell and window sizes, device attributes for sixel) to /dev/tty; inside tmux \
            kitty's queries go only through the passthrough, with XTVERSION for the \
            terminal outside. It asks tmux (when TMUX is set) for its version, the outer \
            terminal and allow-passthrough, waits up to 300 ms for the answers (2 s when \
            the environment names a terminal that shows pixels), and prints one \
            "terminal" record: the answers, the renderer --renderer auto picks and why, \
            advice when tmux holds pixels back, the symbols it draws with, and how a hold is read (the mouse \
            through xterm SGR reports; keys with their releases when the kitty keyboard \
            protocol answered, else through autorepeat). `sposure doctor` shows it.

              gif-play probe
              gif-play probe | jq .renderer

            Exit status: 0 the terminal was asked; 1 there is no terminal to ask.
            """)

    @Option(help: ArgumentHelp("The terminal to ask instead of /dev/tty.", valueName: "path"))
    var tty = "/dev/tty"

    func run() throws {
        let diagnostics = Diagnostics(tool: "gif-play probe")
        let terminal: Terminal
        do { terminal = try Terminal(path: tty) } catch {
            diagnostics.error("no terminal to ask: \(error.description)")
            throw ExitCode.failure
        }
        guard terminal.isTTY && terminal.canRead else {
            diagnostics.error("\(tty) is not a terminal")
            throw ExitCode.failure
        }
        let environment = ProcessInfo.processInfo.environment
        terminal.enter(mouse: false)
        let answers = Capabilities.query(terminal, environment: environment)
        let size = terminal.size()
        terminal.leave(forGood: true)
        let choice = answers.choose(environment: environment)

        var record = TerminalRecord()
        record.tty = tty
        (record.term, record.termProgram, record.colorterm) = (environment["TERM"], environment["TERM_PROGRAM"], environment["COLORTERM"])
        (record.name, record.answered) = (answers.name, answers.answered)
        (record.cols, record.rows) = (size?.cols, size?.rows)
        (record.pixelWidth, record.pixelHeight) = (size.map { $0.pixelWidth }, size.map { $0.pixelHeight })
        record.cellPixels = answers.cellPixels.map { "\($0.width)x\($0.height)" }
        (record.kittyKeyboard, record.kittyGraphics, record.kittyFiles) = (answers.kittyKeyboard, answers.kittyGraphics, answers.kittyFiles)
        (record.sixel, record.sixelColors) = (answers.sixel, answers.sixelColors)
        record.sixelMax = answers.sixelMaxSize.map { "\($0.width)x\($0.height)" }
        record.windowPixels = answers.windowPixels.map { "\($0.width)x\($0.height)" }
        (record.directColor, record.termcapRGB) = (answers.directColor, answers.termcapRGB)
        (record.outerName, record.waitedLongerMs) = (answers.outerName, answers.waitedLongerMs)
        record.tmux = answers.tmux.map {
            TerminalRecord.Tmux(version: $0.version, outerTerm: $0.outerTerm, outerType: $0.outerType, passthrough: $0.passthrough,
                                features: $0.features.joined(separator: ","))
        }
        (record.renderer, record.why, record.advice) = (choice.renderer.rawValue, choice.why, choice.advice)
        record.symbols = Self.symbols(choice.renderer, Symbols.automatic(terminal: answers.name, environment: environment))
        record.mouse = "xterm SGR reports (modes 1000, 1002, 1006): press and release"
        record.keyRelease = answers.kittyKeyboard
        record.keys = answers.kittyKeyboard
            ? "kitty keyboard protocol: exact key releases"
            : "no kitty keyboard protocol: a held key is read from its autorepeat, and a gap ends the hold"
        print(record.record().text)
    }

    /// What `renderer` draws with (`symbols` in cells).
    static func symbols(_ renderer: PlayerConfiguration.Renderer, _ symbols: Symbols) -> String {
        switch renderer {
        case .kitty, .sixel, .iterm: return "pixels"
        case .truecolor: return "\(symbols.title), two 24-bit colours a cell (--symbols \(symbols.rawValue))"
        default: return "\(symbols.title), two of 256 colours a cell (--symbols \(symbols.rawValue))"
        }
    }
}
