import HistoryKit
import FoundationEssentials
import Glibc
import LadderKit

/// What `score` was asked to do.
public struct ReportConfiguration: Sendable {
    /// Text or JSON.
    public var format: ReportFormat = .json
    /// The style of text output.
    public var style: TextStyle = .plain
    /// Print the one `--share` line instead of the report.
    public var share = false
    /// The history to compare with and append to; nil for `--no-history`.
    public var history: HistoryFile?
    /// The ratings of `--distress`.
    public var distress: Distress?
    /// `--at`: the round's date when the stream has none.
    public var at: String?
    /// The date of a history line when neither the stream nor `--at` gave one (`--now`).
    public var now: String = Timestamp.now()
    /// Where ladders are found, for a ladder round's next rung.
    public var ladders = LadderLibrary()
    /// Where the GIFs rated during a round, and those marked off-topic, are kept; nil: not kept (`--no-history`).
    public var ratings: GIFRatingFile?
    /// Where the GIFs each round showed are kept (`seen.ndjson`); nil: not kept (`--no-history`).
    public var seen: SeenFile?
    /// How long to wait for the rest of the stream after a signal, in seconds.
    public var grace = 2.0

    /// The defaults: JSON, plain, no history (the command sets it).
    public init() {}
}
