import FoundationEssentials

/// The data folder and every file in it, named once: what the program
/// remembers of a person's practice. The root is worked out once
/// (``Folders/data(environment:)``: `$SPOSURE_DATA`, else
/// `$XDG_DATA_HOME/sposure`, else `~/.local/share/sposure`); each kit asks
/// it for the file it keeps, and no other file spells a name.
///
/// ```
/// <data>/history.ndjson       the rounds (HistoryKit: HistoryFile; score appends)
/// <data>/ratings.ndjson       GIFs rated with a digit, marked off-topic with x
/// <data>/seen.ndjson          what each round showed (bounded)
/// <data>/budget-<api>.json    each API's call allowance, under budget.lock (GiphyKit)
/// <data>/klipy-customer-id    Klipy's random customer id (GiphyKit)
/// <data>/notice-accepted      the ladder safety notice, accepted once (LadderKit)
/// ```
///
/// `score --history-file FILE` keeps the history elsewhere; the ratings and
/// the seen rounds of those rounds go beside it (``init(holding:)``).
public struct DataStore: Sendable, Equatable {
    /// The folder (not necessarily made yet).
    public let root: String

    /// The data folder the environment names.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        root = Folders.data(environment: environment)
    }

    /// The data folder at `root` (`.` when empty).
    public init(root: String) {
        self.root = root.isEmpty ? "." : root
    }

    /// The folder that holds the history file at `history`.
    public init(holding history: String) {
        self.init(root: Paths.parent(history))
    }

    /// The rounds played.
    public var history: String { root + "/history.ndjson" }
    /// The GIFs rated during rounds, and those marked off-topic.
    public var ratings: String { root + "/ratings.ndjson" }
    /// What each round showed.
    public var seen: String { root + "/seen.ndjson" }
    /// The lock every API's call allowance is changed under.
    public var budgetLock: String { root + "/budget.lock" }
    /// The call allowance of the API `provider` (`giphy`, `klipy`).
    public func budget(_ provider: String) -> String { root + "/budget-\(provider).json" }
    /// Klipy's customer id.
    public var klipyCustomerID: String { root + "/klipy-customer-id" }
    /// The ladder safety notice's acceptance.
    public var noticeAccepted: String { root + "/notice-accepted" }
}
