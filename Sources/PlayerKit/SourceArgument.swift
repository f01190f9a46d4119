/// An option whose value is one of a few words or `script:FILE` (`--hold`,
/// `--ratings`): one parser for both, and the name each is written as.
public protocol SourceArgument: Equatable {
    /// The words, each with the source it means, in the order the help lists them.
    static var words: [(name: String, source: Self)] { get }
    /// The source read from a script file.
    static func script(_ file: String) -> Self
}

extension SourceArgument {
    /// Parses one of ``words``, or `script:FILE` (a file must be named).
    public init?(argument: String) {
        let prefix = "script:"
        if argument.hasPrefix(prefix), argument.count > prefix.count {
            self = .script(String(argument.dropFirst(prefix.count)))
        } else if let word = Self.words.first(where: { $0.name == argument }) {
            self = word.source
        } else {
            return nil
        }
    }

    /// The name: the word, or `script` (the help's default, the session event's `hold`).
    public var name: String { Self.words.first(where: { $0.source == self })?.name ?? "script" }
}
