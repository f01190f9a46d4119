/// Why a round could not start: one line to say, and the exit status (1, or
/// 64 for a usage error the command line could not see).
public struct RoundFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// What to say.
    public var description: String
    /// The exit status.
    public var status: Int32

    /// A failure that says `description` and exits `status`.
    public init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}
