/// The options every stage takes: buffers, strictness, noise.
///
/// The command lines read them as `StreamOptions` (SposureCLI); the kits and
/// the tests make them directly.
public struct StageOptions: Sendable, Equatable {
    /// The capacity of each queue (input and output).
    public var buffer: Int
    /// Bad lines are fatal (exit 2) instead of becoming `bad_json` records.
    public var strict: Bool
    /// No warnings or progress.
    public var quiet: Bool
    /// The longest accepted line.
    public var maxLine: ByteCount
    /// Requests and decisions traced on stderr.
    public var verbose: Bool

    /// Options with the command lines' defaults unless given.
    public init(buffer: Int = 256, strict: Bool = false, quiet: Bool = false, maxLine: ByteCount = ByteCount(1 << 20),
                verbose: Bool = false) {
        self.buffer = buffer
        self.strict = strict
        self.quiet = quiet
        self.maxLine = maxLine
        self.verbose = verbose
    }
}
