import FoundationEssentials
import GIFEngine
import Glibc
import SposureKit

/// What the terminal says it can do, asked once at start-up with escape
/// sequences, with the environment as the fallback: the kitty keyboard
/// protocol (exact key releases), kitty graphics (and whether it can read
/// our files: the same machine), sixel (its colour registers and largest
/// image), the terminal's name (XTVERSION), its cell size, and tmux.
public struct Capabilities: Sendable, Equatable {
    /// Kitty keyboard protocol: key releases are reported.
    public var kittyKeyboard = false
    /// Kitty graphics protocol.
    public var kittyGraphics = false
    /// Kitty graphics can read a file we write (`t=t`): the terminal runs on this machine.
    public var kittyFiles = false
    /// Sixel graphics (device attribute 4).
    public var sixel = false
    /// Sixel colour registers, when the terminal says (XTSMGRAPHICS item 1).
    public var sixelColors: Int?
    /// The largest sixel image in pixels, when the terminal says (XTSMGRAPHICS item 2).
    public var sixelMaxSize: CellSize?
    /// The terminal's name and version as XTVERSION gives it ("kitty(0.39.1)", "XTerm(388)", "tmux 3.3a").
    public var name: String?
    /// One cell's size in pixels (`CSI 16 t`), when the terminal says.
    public var cellPixels: CellSize?
    /// The device attributes arrived: the terminal answers queries.
    public var answered = false
    /// The tmux the player runs in, when it does.
    public var tmux: Tmux?
    /// The terminal outside tmux, as its XTVERSION through the passthrough gives it ("kitty(0.26.5)").
    public var outerName: String?
    /// Whether a 24-bit colour set and read back (DECRQSS) stayed 24-bit;
    /// nil when the terminal did not say.
    public var directColor: Bool?
    /// Whether XTGETTCAP says the terminal has 24-bit colour (`RGB` or `Tc`); nil when it did not say.
    public var termcapRGB: Bool?
    /// The text area's size in pixels (`CSI 14 t`), when the terminal says.
    public var windowPixels: CellSize?
    /// Milliseconds the probe waited past its first 300 ms for a terminal
    /// the environment names as one that shows pixels (0: it did not).
    public var waitedLongerMs = 0
    /// Environment variables naming a terminal that shows pixels, when they
    /// do ("KITTY_WINDOW_ID"): a terminal that should have answered.
    public var pixelTerminalHint: String?

    /// Nothing known: a terminal that cannot be asked.
    public init() {}

    /// The tmux around the player, as `tmux display-message` tells.
    public struct Tmux: Sendable, Equatable {
        /// tmux's version ("3.3a").
        public var version: String
        /// The outer terminal's TERM ("xterm-kitty").
        public var outerTerm: String
        /// The outer terminal as tmux identified it, when it did.
        public var outerType: String
        /// `allow-passthrough` is on: escape sequences wrapped for it reach the outer terminal.
        public var passthrough: Bool
        /// What tmux knows the outer terminal does (`client_termfeatures`: `RGB` is 24-bit colour).
        public var features: [String]

        /// Facts about a tmux.
        public init(version: String, outerTerm: String, outerType: String = "", passthrough: Bool, features: [String] = []) {
            self.version = version
            self.outerTerm = outerTerm
            self.outerType = outerType
            self.passthrough = passthrough
            self.features = features
        }

        /// Whether this tmux is at least `major.minor` (3.3 for passthrough and placeholders).
        public func isAtLeast(_ major: Int, _ minor: Int) -> Bool {
            let digits = version.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard let first = digits.first else { return version.hasPrefix("next") || version == "master" }
            return first > major || (first == major && (digits.dropFirst().first ?? 0) >= minor)
        }

        /// Asks the tmux server this process runs under (`TMUX` set); nil when it does not answer.
        public static func ask(environment: [String: String]) -> Tmux? {
            guard let socket = environment["TMUX"], !socket.isEmpty,
                  let facts = run("tmux display-message -p '#{version}|#{client_termname}|#{client_termtype}|#{client_termfeatures}' 2>/dev/null")
            else { return nil }
            let fields = facts.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { return nil }
            let passthrough = run("tmux show-options -gqv allow-passthrough 2>/dev/null") ?? ""
            let pane = run("tmux show-options -pqv allow-passthrough 2>/dev/null") ?? ""
            let setting = pane.isEmpty ? passthrough : pane
            return Tmux(version: fields[0], outerTerm: fields[1], outerType: fields.count > 2 ? fields[2] : "",
                        passthrough: setting == "on" || setting == "all",
                        features: fields.count > 3 ? fields[3].split(separator: ",").map(String.init) : [])
        }

        private static func run(_ command: String) -> String? {
            guard let pipe = popen(command, "r") else { return nil }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 512)
            while bytes.count < 4096 {
                let n = fread(&chunk, 1, chunk.count, pipe)
                if n <= 0 { break }
                bytes += chunk[..<n]
            }
            guard pclose(pipe) == 0 else { return nil }
            while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The renderer `--renderer auto` picks, why, and anything the person
    /// should know (one line each: how to turn on tmux's passthrough).
    public struct Choice: Sendable, Equatable {
        /// The renderer.
        public var renderer: PlayerConfiguration.Renderer
        /// Why, in a sentence.
        public var why: String
        /// One-line advice, to say once.
        public var advice: String?
    }

    /// Whether the terminal, by name or environment, is one that speaks the
    /// iTerm2 image protocol best: iTerm2, WezTerm, mintty, VS Code's terminal.
    func speaksITerm(_ environment: [String: String]) -> Bool {
        let name = (self.name ?? "").lowercased()
        if ["iterm2", "wezterm", "mintty"].contains(where: { name.hasPrefix($0) }) { return true }
        switch environment["TERM_PROGRAM"] ?? "" {
        case "iTerm.app", "WezTerm", "mintty": return true
        case "vscode": return sixel  // images enabled: it answers with sixel, and reads iTerm2 images too
        default: return environment["LC_TERMINAL"] == "iTerm2" && tmux == nil
        }
    }

    /// Whether the terminal outside tmux is kitty.
    func outerIsKitty(_ environment: [String: String]) -> Bool {
        guard let tmux else { return false }
        return tmux.outerTerm == "xterm-kitty" || tmux.outerType.lowercased().hasPrefix("kitty")
            || (outerName ?? "").lowercased().hasPrefix("kitty") || environment["KITTY_WINDOW_ID"] != nil
    }

    /// The outer kitty's version, from its XTVERSION through the passthrough
    /// or tmux's `client_termtype` ("kitty(0.26.5)"); nil when neither says.
    public var outerKittyVersion: [Int]? {
        for text in [outerName, tmux?.outerType] {
            guard let text, text.lowercased().hasPrefix("kitty") else { continue }
            let numbers = text.drop(while: { !$0.isNumber }).split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if !numbers.isEmpty { return numbers }
        }
        return nil
    }

    /// Whether kitty `version` draws Unicode placeholders (0.28.0 and later).
    public static func kittyDrawsPlaceholders(_ version: [Int]) -> Bool {
        version.lexicographicallyPrecedes([0, 28]) == false
    }

    /// `--renderer auto`: kitty graphics (also inside tmux ≥ 3.3 with
    /// passthrough, as Unicode placeholders), else the iTerm2 protocol for the
    /// terminals that speak it, else sixel, else truecolor cells when
    /// COLORTERM promises 24-bit colour, else 256 colours.
    public func choose(environment: [String: String]) -> Choice {
        if let tmux, outerIsKitty(environment) {
            if tmux.isAtLeast(3, 3) && tmux.passthrough {
                guard let version = outerKittyVersion else {
                    // Placeholders on a kitty before 0.28 are a screen of glyphs: a
                    // picture in cells is the one that is sure to be seen.
                    var cells = cellChoice(environment: environment, pixels: "inside tmux around a kitty that did not say its version in time (Unicode placeholders need 0.28 or later)")
                    cells.advice = "the kitty outside tmux did not say its version, and Unicode placeholders need kitty 0.28 or later: cells this time (`--renderer kitty` draws placeholders anyway)"
                    return cells
                }
                let kitty = "kitty " + version.map(String.init).joined(separator: ".")
                if Self.kittyDrawsPlaceholders(version) {
                    return Choice(renderer: .kitty, why: "inside tmux \(tmux.version) with allow-passthrough, around \(kitty): pixels through Unicode placeholders, which survive tmux's redraws")
                }
                var cells = cellChoice(environment: environment, pixels: "inside tmux around \(kitty), which draws no Unicode placeholders (0.28 or later does)")
                cells.advice = "\(kitty) outside tmux cannot draw pictures inside it (Unicode placeholders need kitty 0.28 or later): cells until kitty is updated"
                return cells
            }
            let advice = tmux.isAtLeast(3, 3)
                ? "kitty graphics inside tmux need passthrough: run `tmux set -g allow-passthrough on`, then start again (cells until then)"
                : "kitty graphics inside tmux need tmux 3.3 or later with allow-passthrough on (this is tmux \(tmux.version); cells until then)"
            var cells = cellChoice(environment: environment, pixels: "kitty is outside, but tmux does not pass its graphics through")
            cells.advice = advice
            return cells
        }
        let name = self.name.map { " (\($0))" } ?? ""
        if kittyGraphics && !(self.name ?? "").lowercased().hasPrefix("wezterm") && tmux == nil {
            return Choice(renderer: .kitty, why: "the terminal\(name) answered the kitty graphics query: pixels, each frame sent once and shown again by id")
        }
        if speaksITerm(environment) && tmux == nil {
            return Choice(renderer: .iterm, why: "the terminal\(name) speaks the iTerm2 image protocol (OSC 1337 File=)")
        }
        if sixel {
            let colors = sixelColors.map { ", \($0) colour registers" } ?? ""
            return Choice(renderer: .sixel, why: "the terminal\(name)'s device attributes include sixel (4)\(colors)")
        }
        if !answered, let hint = pixelTerminalHint {
            // Said once: a terminal that shows pixels kept silent, so the picture is coarser than it could be.
            var cells = cellChoice(environment: environment, pixels: "the terminal did not answer the probe within \(Self.longestWaitMs / 1000) s, though \(hint) names one that shows pixels")
            cells.advice = "the terminal (\(hint)) did not answer in \(Self.longestWaitMs / 1000) s: cells instead of pixels this time (`gif-play probe` asks again)"
            return cells
        }
        return cellChoice(environment: environment, pixels: "no pixel graphics answered")
    }

    private func cellChoice(environment: [String: String], pixels: String) -> Choice {
        if directColor == true {
            return Choice(renderer: .truecolor, why: "\(pixels); a 24-bit colour set and read back (DECRQSS) stayed 24-bit")
        }
        if termcapRGB == true {
            return Choice(renderer: .truecolor, why: "\(pixels); the terminal says it has 24-bit colour (XTGETTCAP RGB)")
        }
        if let tmux, tmux.features.contains("RGB") {
            return Choice(renderer: .truecolor, why: "\(pixels); tmux \(tmux.version) passes 24-bit colour to the terminal outside (its RGB feature)")
        }
        if Self.truecolor(environment) {
            return Choice(renderer: .truecolor, why: "\(pixels); COLORTERM=\(environment["COLORTERM"] ?? "") promises 24-bit colour")
        }
        let readBack = directColor == false ? ", a 24-bit colour read back (DECRQSS) came back as a palette colour" : ", the terminal did not say it has 24-bit colour"
        return Choice(renderer: .palette, why: "\(pixels)\(readBack), and COLORTERM does not promise it (export COLORTERM=truecolor if the terminal has it)")
    }

    /// The renderer `--renderer auto` picks (``choose(environment:)``).
    public func renderer(environment: [String: String]) -> PlayerConfiguration.Renderer {
        choose(environment: environment).renderer
    }

    /// Whether COLORTERM promises 24-bit colour.
    public static func truecolor(_ environment: [String: String]) -> Bool {
        let value = environment["COLORTERM"]?.lowercased() ?? ""
        return value == "truecolor" || value == "24bit"
    }

    /// What the graphics renderers need to know of the terminal.
    public func graphics() -> GraphicsOptions {
        var options = GraphicsOptions()
        options.kittyFiles = kittyFiles && tmux == nil
        options.tmuxPlaceholders = tmux != nil
        if let sixelColors { options.sixelColors = max(2, min(256, sixelColors)) }
        options.sixelMaxSize = sixelMaxSize
        return options
    }
}
