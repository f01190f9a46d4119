/// Why a round ended: a `session` end's `reason`. The player ends rounds for
/// the five reasons below; a stream read back keeps whatever it says.
public struct EndReason: RawRepresentable, Hashable, Sendable {
    /// The word written.
    public var rawValue: String

    /// A reason of that word.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The person let go (`--on-release end`).
    public static let released = EndReason(rawValue: "released")
    /// The person pressed q.
    public static let quit = EndReason(rawValue: "quit")
    /// The GIFs ran out.
    public static let eof = EndReason(rawValue: "eof")
    /// `--time-limit` was reached.
    public static let timeLimit = EndReason(rawValue: "time-limit")
    /// A signal stopped it.
    public static let interrupted = EndReason(rawValue: "interrupted")
}
