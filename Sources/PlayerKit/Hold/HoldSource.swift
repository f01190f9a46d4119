/// Where holds come from.
public enum HoldSource: Equatable, Sendable {
    /// A mouse button (xterm SGR reports).
    case mouse
    /// A key (SPACE): exact releases with the kitty protocol, else inferred from autorepeat.
    case keys
    /// Mouse and keys.
    case auto
    /// Held from the start to the end (headless replays).
    case always
    /// Scripted: NDJSON `{"t_ms":…,"down":true|false}` lines.
    case script(String)

    /// Parses `mouse`, `keys`, `auto`, `always` or `script:FILE`.
    public init?(argument: String) {
        switch argument {
        case "mouse": self = .mouse
        case "keys": self = .keys
        case "auto": self = .auto
        case "always": self = .always
        default:
            guard argument.hasPrefix("script:"), argument.count > 7 else { return nil }
            self = .script(String(argument.dropFirst(7)))
        }
    }

    /// Whether a person holds (mouse, keys or both), rather than a script or nobody.
    public var isByPerson: Bool { self == .mouse || self == .keys || self == .auto }

    /// The name written in the session event.
    public var name: String {
        switch self {
        case .mouse: return "mouse"
        case .keys: return "keys"
        case .auto: return "auto"
        case .always: return "always"
        case .script: return "script"
        }
    }
}
