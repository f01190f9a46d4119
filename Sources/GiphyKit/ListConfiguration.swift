import NetKit
import LadderKit
import SposureKit

/// How `giphy-pages list` runs its page requests.
public struct ListConfiguration: Sendable {
    /// Page requests at once.
    public var concurrency = 2
    /// `--rendition`: the rendition (or size) asked for, of whichever API
    /// has one of that name; every other API keeps its own default.
    public var rendition: String?
    /// Seconds a page may spend waiting between retries, in all.
    public var maxWait = 60.0
    /// The most API calls of the run; nil: no cap.
    public var maxCalls: Int?
    /// Calls allowed per period of seconds (`--rate`; 0 calls: no limit);
    /// nil: each provider's own (``GIFProvider/defaultRate``).
    public var rate: (calls: Int, period: Double)?
    /// Where the call budget is kept across runs (the data folder); nil: for this run only.
    public var dataFolder: String?
    /// The API answers kept on disk; nil: none.
    public var cache: APICache?
    /// Take back `error` records of this stage and run their pages again.
    public var retryErrors = false
    /// Backoff between retries.
    public var backoff = Backoff(base: 1, cap: 30)
    /// Ids remembered to drop repeats.
    public var dedupCapacity = 100_000
    /// Records in the stage at once.
    public var window = 64
    /// Seconds for one request.
    public var timeout = 30.0
    /// Seconds a page may take from its first call to its result, attempts
    /// and the waits between them together (`--max-time`); nil: no limit.
    /// Past it the page is a `timeout` error record.
    public var maxTime: Double? = ListConfiguration.defaultMaxTime
    /// `--max-time`'s default: an attempt or two of a stalled API at
    /// `--timeout`, or `--max-wait`'s minute of waits and a normal call.
    public static let defaultMaxTime = 90.0
    /// On a ladder's pages, skip GIFs rated well above the rung; nil: skip none.
    public var ratedSkip: RatedSkip?
    /// Words whose results every page leaves out (`--avoid`), besides the page's own `avoid`.
    public var avoid = AvoidList()
    /// Skip GIFs marked off-topic; nil: skip none.
    public var offTopic: OffTopicSkip?
    /// Put GIFs shown in recent rounds last; nil: list in page order.
    public var fresh: FreshOrder?

    /// The defaults.
    public init() {}

    /// The renditions of `api` to pick from, in order: `--rendition` when it
    /// is one of the API's, else its default, then its fallbacks.
    public func choices(_ api: any GIFAPI) -> [String] {
        if let rendition, api.renditions.contains(rendition) { return api.chain(for: rendition) }
        return api.chain(for: api.defaultRendition)
    }
}
