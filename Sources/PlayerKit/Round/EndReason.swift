/// Why a round ended.
public enum EndReason: String, Sendable {
    case released, quit, eof, timeLimit = "time-limit", interrupted
}
