import SposureKit

/// What the terminal says it can do, asked with escape sequences: the kitty
/// keyboard protocol (exact key releases), kitty graphics, sixel.
public struct Capabilities: Sendable, Equatable {
    /// Kitty keyboard protocol: key releases are reported.
    public var kittyKeyboard = false
    /// Kitty graphics protocol.
    public var kittyGraphics = false
    /// Sixel graphics.
    public var sixel = false

    /// Nothing known: a terminal that cannot be asked.
    public init() {}

    /// Sends the queries and reads the replies until the device attributes
    /// (which every terminal answers) arrive, or 300 ms pass.
    public static func query(_ terminal: Terminal) -> Capabilities {
        terminal.write("\u{1B}[?u\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c")
        var parser = InputParser()
        var answers = Capabilities()
        let deadline = monotonicSeconds() + 0.3
        while monotonicSeconds() < deadline {
            let bytes = terminal.read(timeoutMs: 50)
            for event in parser.feed(bytes) {
                switch event {
                case .kittyKeyboard: answers.kittyKeyboard = true
                case .kittyGraphics(let ok): answers.kittyGraphics = ok
                case .deviceAttributes(let attributes):
                    answers.sixel = attributes.dropFirst().contains(4)
                    return answers
                default: break
                }
            }
        }
        return answers
    }

    /// The renderer `--renderer auto` picks: kitty graphics, else sixel, else
    /// truecolor half blocks when COLORTERM promises 24-bit colour, else 256 colours.
    public func renderer(environment: [String: String]) -> PlayerConfiguration.Renderer {
        kittyGraphics ? .kitty : sixel ? .sixel : Self.truecolor(environment) ? .truecolor : .palette
    }

    /// Whether COLORTERM promises 24-bit colour.
    public static func truecolor(_ environment: [String: String]) -> Bool {
        let value = environment["COLORTERM"]?.lowercased() ?? ""
        return value == "truecolor" || value == "24bit"
    }
}
