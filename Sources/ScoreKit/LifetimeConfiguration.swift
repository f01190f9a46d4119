import HistoryKit
import FoundationEssentials
import Glibc

/// What `score history` was asked to do.
public struct LifetimeConfiguration: Sendable {
    /// Text or JSON.
    public var format: ReportFormat = .json
    /// The style of text output.
    public var style: TextStyle = .plain
    /// The history to read.
    public var history = HistoryFile.named(nil)
    /// Only the latest rounds, when set.
    public var last: Int?
    /// Where to write the SVG chart, when set.
    public var plotPath: String?
    /// `--export csv`: one row per round instead of the statistics.
    public var exportCSV = false
    /// `--now`: the moment "today" and the week are counted from; nil: now, and the
    /// practice fields only when the history has ladder rounds.
    public var now: Date?

    /// The defaults: JSON, every round, no chart.
    public init() {}
}
