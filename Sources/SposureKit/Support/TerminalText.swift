/// Kept while callers move to ``RemoteText``.
public enum TerminalText {
    /// ``RemoteText/strip(_:)``.
    public static func strip(_ text: String) -> String { RemoteText.strip(text) }
}
