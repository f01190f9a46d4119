import SposureKit
import NetKit

/// How `fetch-images` fetches: limits, timeouts, retries and policy.
public struct FetchConfiguration: Sendable {
    /// Transfers at once.
    public var concurrency = 8
    /// Transfers at once to one host.
    public var perHost = 8
    /// The largest body accepted, in bytes.
    public var maxBytes = 20_000_000
    /// Seconds allowed to connect.
    public var connectTimeout = 10.0
    /// Seconds below `lowSpeedLimit` before a transfer counts as timed out.
    public var lowSpeedTime = 30.0
    /// Bytes per second under which a transfer is slow.
    public var lowSpeedLimit = 1000
    /// Retries of transient failures.
    public var retries = 3
    /// Backoff between retries.
    public var backoff = Backoff(base: 0.5)
    /// Whether `file://` URLs may be read.
    public var allowFile = false
    /// Emit in input order (true) or as transfers finish.
    public var ordered = true
    /// Fetch again even when cached.
    public var refresh = false
    /// Which HTTP versions to speak.
    public var httpVersion = HTTPVersion.auto
    /// How many records may be in the stage at once (read but not yet written).
    public var window = 256
    /// When stdout is a pipe: at most this many records read that the next
    /// stage has not taken yet, transfers in flight among them (nil: no bound
    /// but ``window``). A short round then fetches only a few GIFs past the last
    /// one shown (issue 29 #10).
    public var ahead: Int? = 6
    /// Fetch again the URLs whose failure the cache remembers.
    public var retryFailed = false
    /// Longest `Retry-After` honoured, in seconds; a longer one fails at once.
    public var maxRetryAfter = 60.0
    /// Seconds a record may take from its first attempt, retries included
    /// (nil or 0: no limit): a stalled server holds the ordered stream no longer.
    public var maxTime: Double? = 20

    /// The defaults.
    public init() {}
}

/// The HTTP version `fetch-images` asks for.
public enum HTTPVersion: String, CaseIterable, Sendable {
    /// HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
    case auto
    /// HTTP/1.1 only: one transfer per connection, many connections.
    case http1 = "1.1"
    /// HTTP/2 wherever possible (over TLS; cleartext servers are asked to upgrade).
    case http2 = "2"
}
