/// How a report is written: text for a person, or JSON records for programs.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// Text, coloured on a terminal.
    case text
    /// One JSON record a line.
    case json
}
