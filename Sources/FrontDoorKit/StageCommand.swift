/// One program of a round's pipeline: the name a round is judged by
/// (`giphy-pages plan`, `fetch-images`, `save events`…) and its argv.
public struct StageCommand: Sendable, Equatable {
    /// The name ``RoundJudge`` knows it by.
    public var name: String
    /// The program (a path, or a name looked up on `PATH`) and its arguments.
    public var arguments: [String]

    /// The stage `name` running `arguments`.
    public init(_ name: String, _ arguments: [String]) {
        self.name = name
        self.arguments = arguments
    }

    /// `tee -p FILE`, named `save LABEL`: saves the stream that passes and,
    /// when its reader goes first, keeps saving instead of dying of SIGPIPE.
    public static func save(_ label: String, to path: String) -> StageCommand {
        StageCommand("save \(label)", ["tee", "-p", path])
    }
}
