/// One program of a round's pipeline: the name a round is judged by
/// (`giphy-pages plan`, `fetch-images`, `save events`…) and its argv.
public struct StageCommand: Sendable, Equatable {
    /// The name ``RoundJudge`` knows it by.
    public var name: String
    /// The program (a path, or a name looked up on `PATH`) and its arguments.
    public var arguments: [String]
    /// Starts with SIGINT, SIGTERM and SIGHUP blocked, so it ends only at the
    /// end of its input: a save between gif-play and score must pass on what
    /// the player writes after a Ctrl-C (its session end), or score would
    /// print its report while the player still holds the screen.
    public var endsWithItsInput = false
    /// A file ``StagePipeline`` makes new for the program (never through a
    /// link, never over a file that is there) and gives it as fd 3.
    public var creates: String?

    /// The stage `name` running `arguments`.
    public init(_ name: String, _ arguments: [String], endsWithItsInput: Bool = false) {
        self.name = name
        self.arguments = arguments
        self.endsWithItsInput = endsWithItsInput
    }

    /// `tee -p FILE`, named `save LABEL`: saves the stream that passes and,
    /// when its reader goes first, keeps saving instead of dying of SIGPIPE;
    /// it ends with its input, never by a signal. `path` must not exist: the
    /// pipeline makes it (tee's own open would truncate what is there and
    /// follow a link planted at the name) and tee writes to `/dev/fd/3`.
    public static func save(_ label: String, to path: String) -> StageCommand {
        var command = StageCommand("save \(label)", ["tee", "-p", "/dev/fd/3"], endsWithItsInput: true)
        command.creates = path
        return command
    }
}
