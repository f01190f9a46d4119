/// Where a ladder round's ratings come from (`--ratings`).
public enum RatingSource: Equatable, Sendable {
    /// Asked on the terminal (nothing asked when there is none to read).
    case ask
    /// Not asked.
    case off
    /// Read from a file (``RatingScript``): replays give the same events.
    case script(String)

    /// Parses `ask`, `off` or `script:FILE`.
    public init?(argument: String) {
        switch argument {
        case "ask": self = .ask
        case "off": self = .off
        default:
            guard argument.hasPrefix("script:"), argument.count > 7 else { return nil }
            self = .script(String(argument.dropFirst(7)))
        }
    }

    /// The name, as the help shows the default.
    public var name: String {
        switch self {
        case .ask: return "ask"
        case .off: return "off"
        case .script: return "script"
        }
    }
}
