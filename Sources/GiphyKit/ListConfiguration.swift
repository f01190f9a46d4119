import FetchKit
import SposureKit

/// How `giphy-pages list` runs its page requests.
public struct ListConfiguration: Sendable {
    /// Page requests at once.
    public var concurrency = 2
    /// The Giphy rendition asked for, then its fallbacks.
    public var renditions = GIFRecord.chain(for: "fixed_height")
    /// The Klipy size asked for, then the others by closeness.
    public var klipySizes = KlipyAPI.chain(for: "sm")
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
    /// On a ladder's pages, skip GIFs rated well above the rung; nil: skip none.
    public var ratedSkip: RatedSkip?

    /// The defaults.
    public init() {}
}
