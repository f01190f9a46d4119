/// Where a round plays and what it reads and writes, besides how it plays
/// (``PlayerConfiguration``): what `gif-play`'s command line says.
public struct PlayerLaunch: Sendable {
    /// GIF files to play instead of reading image records on stdin.
    public var files: [String] = []
    /// Where to draw: a terminal, or a file (tests, benchmarks).
    public var ttyPath = "/dev/tty"
    /// A file that gets the events too.
    public var eventsPath: String?
    /// The screen size in cells, instead of the terminal's (80×24 for a file).
    public var size: (columns: Int, rows: Int)?
    /// A line that is not JSON is fatal.
    public var strict = false
    /// No warnings on stderr.
    public var quiet = false
    /// Say on stderr which renderer was chosen and why.
    public var verbose = false

    /// The defaults: records on stdin, drawing on /dev/tty.
    public init() {}
}
