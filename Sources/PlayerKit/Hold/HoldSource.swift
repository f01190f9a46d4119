/// Where holds come from.
public enum HoldSource: SourceArgument, Sendable {
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

    /// `mouse`, `keys`, `auto` and `always` (or `script:FILE`).
    public static let words: [(name: String, source: HoldSource)] = [("mouse", .mouse), ("keys", .keys), ("auto", .auto), ("always", .always)]

    /// Whether a person holds (mouse, keys or both), rather than a script or nobody.
    public var isByPerson: Bool { self == .mouse || self == .keys || self == .auto }
}
