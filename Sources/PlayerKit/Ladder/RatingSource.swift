/// Where a ladder round's ratings come from (`--ratings`).
public enum RatingSource: SourceArgument, Sendable {
    /// Asked on the terminal (nothing asked when there is none to read).
    case ask
    /// Not asked.
    case off
    /// Read from a file (``RatingScript``): replays give the same events.
    case script(String)

    /// `ask` and `off` (or `script:FILE`).
    public static let words: [(name: String, source: RatingSource)] = [("ask", .ask), ("off", .off)]
}
