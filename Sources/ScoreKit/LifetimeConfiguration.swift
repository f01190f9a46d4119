/// What `score history` was asked to do.
public struct LifetimeConfiguration: Sendable {
    /// Text or JSON.
    public var format: ReportFormat = .json
    /// The style of text output.
    public var style: TextStyle = .plain
    /// The history to read.
    public var history = HistoryFile(path: HistoryFile.defaultPath())
    /// Only the latest rounds, when set.
    public var last: Int?
    /// Where to write the SVG chart, when set.
    public var plotPath: String?

    /// The defaults: JSON, every round, no chart.
    public init() {}
}
