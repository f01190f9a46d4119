import SposureKit

//  What a network stage gives the ``RequestEngine``: its jobs, whether each may
//  start, how an attempt is set up on a ``RequestHandle`` and what a finished
//  one means. The contract names nothing of libcurl: a client outside FetchKit
//  (giphy-pages) sets up an API call with ``MemoryTransfer/get(_:on:connectTimeout:timeout:)``
//  and reads its ``MemoryTransfer/response(_:)``.

/// One record's work in a ``RequestEngine``: its place in the output order and
/// its attempts. A client subclasses it with what its requests need.
open class RequestJob {
    /// Its place in the input order.
    public let sequence: Int
    /// Transfers are counted per host against the per-host limit ("" for no host).
    public let host: String
    /// Attempts started so far.
    public var attempts = 0
    /// Monotonic nanoseconds before which a retry must not start.
    public var notBefore: UInt64 = 0
    /// Seconds spent waiting between attempts, in all.
    public var waited = 0.0
    /// Monotonic nanoseconds by which the job must be done, retries included
    /// (set when its first attempt starts, from ``RequestLimits/maxTime``).
    public var deadline: UInt64?

    /// A job for item `sequence`, fetched from `host`.
    public init(sequence: Int, host: String = "") {
        self.sequence = sequence
        self.host = host
    }
}

/// Whether a waiting job may start now.
public enum RequestGate {
    /// Start it.
    case start
    /// Not yet: leave it waiting and look at the next one.
    case later
    /// The client has settled it without a request (its result is out): drop it.
    case settled
    /// Not for `seconds` (a rate limit): leave it waiting; jobs the limit
    /// does not hold back (another API's pages) may start meanwhile.
    case pause(seconds: Double)
}

/// What a finished transfer amounts to, as the client reads it.
public enum RequestCompletion {
    /// The client has handed on the job's result.
    case done
    /// The result is being finished elsewhere; ``RequestClient/takeDeferred()`` tells when.
    case deferred
    /// It failed: retried by the ``RetryPolicy`` when transient, else handed to
    /// ``RequestClient/fail(_:_:)``.
    case failed(FetchFailure)
    /// The client has handed on the job's result, and the run must stop: every
    /// other job is interrupted with `failure` (a refused key).
    case stop(FetchFailure)
}

/// When a transient failure is tried again.
public struct RetryPolicy: Sendable {
    /// The most retries of one job; nil: no cap (``maxWait`` bounds them).
    public var retries: Int?
    /// Seconds a job may spend waiting between attempts, in all; nil: no cap.
    public var maxWait: Double?
    /// The longest `Retry-After` honoured, in seconds; a longer one fails at once. nil: any.
    public var maxRetryAfter: Double?
    /// The delay when the server names none.
    public var backoff: Backoff

    /// A policy; without limits every transient failure is retried.
    public init(retries: Int? = nil, maxWait: Double? = nil, maxRetryAfter: Double? = nil, backoff: Backoff) {
        self.retries = retries
        self.maxWait = maxWait
        self.maxRetryAfter = maxRetryAfter
        self.backoff = backoff
    }

    /// Seconds to wait before the next attempt of a job that has made
    /// `attempts` and waited `waited` seconds, when the server asked for
    /// `retryAfter` seconds (0: it did not); nil: do not retry.
    public func delay(attempts: Int, waited: Double, retryAfter: Int64) -> Double? {
        if let retries, attempts > retries { return nil }
        let delay: Double
        if retryAfter > 0 {
            if let maxRetryAfter, Double(retryAfter) > maxRetryAfter { return nil }
            delay = Double(retryAfter)
        } else {
            delay = backoff.delay(attempt: attempts)
        }
        if let maxWait, waited + delay > maxWait { return nil }
        return delay
    }
}

/// How many transfers a ``RequestEngine`` runs at once, and how it retries.
public struct RequestLimits: Sendable {
    /// Transfers at once.
    public var concurrency: Int
    /// Transfers at once to one host.
    public var perHost: Int
    /// When to try again.
    public var retry: RetryPolicy
    /// Seconds a job may take from its first attempt to its result, retries
    /// included; nil: no limit (each attempt still has its own timeouts).
    public var maxTime: Double?

    /// Limits of `concurrency` transfers, `perHost` to one host (default: no
    /// tighter than `concurrency`), retried by `retry`, each job done within
    /// `maxTime` seconds of its first attempt.
    public init(concurrency: Int, perHost: Int? = nil, retry: RetryPolicy, maxTime: Double? = nil) {
        self.concurrency = max(1, concurrency)
        self.perHost = max(1, min(perHost ?? concurrency, concurrency))
        self.retry = retry
        self.maxTime = maxTime.flatMap { $0 > 0 ? $0 : nil }
    }
}

/// What differs between the network stages: how a record becomes a job, how
/// a job's transfer is set up, and what a finished transfer means.
///
/// Every method is called on the engine's thread. The client hands results on
/// through the ``OutputSequencer`` it gave the engine, by the job's sequence.
public protocol RequestClient: AnyObject {
    /// The client's job.
    associatedtype Job: RequestJob
    /// What the client keeps for one attempt (its write target, its buffers).
    associatedtype Transfer

    /// Takes record `sequence`: hands its result on now (and returns nil), or
    /// returns the job that needs a request.
    func admit(_ sequence: Int, _ input: InputRecord) -> Job?
    /// Whether `job` may start now (`now`: monotonic nanoseconds).
    func gate(_ job: Job, now: UInt64) -> RequestGate
    /// Sets up the attempt on `handle` (reset, its connections shared with
    /// the engine's other handles); a failure ends the job.
    func start(_ job: Job, on handle: RequestHandle) -> Result<Transfer, FetchFailure>
    /// What the finished attempt on `handle` amounts to.
    func complete(_ job: Job, _ transfer: Transfer, result: TransferResult, handle: RequestHandle) -> RequestCompletion
    /// Removes what an attempt that will not finish left behind (a stop, a retry).
    func discard(_ transfer: Transfer)
    /// Hands on the error record for `job`, which failed for good.
    func fail(_ job: Job, _ failure: FetchFailure)
    /// Hands on the records of jobs that will not run (a stop): `failure` is
    /// ``FetchFailure/interrupted`` or the failure of ``RequestCompletion/stop(_:)``.
    func interrupt(_ jobs: [Job], with failure: FetchFailure)
    /// Jobs finished elsewhere since the last call (``RequestCompletion/deferred``),
    /// their results handed on.
    func takeDeferred() -> Int
    /// Jobs finished elsewhere and not yet taken back.
    var deferredCount: Int { get }
    /// Finishes, at a stop, every deferred job that can be finished now.
    func finishDeferred()
    /// Counts lines that were not records (each already handed on as a `bad_json` record).
    func noteBadLines(_ count: Int)
    /// `job` failed with `failure` and is tried again in `delay` seconds.
    func noteRetry(_ job: Job, _ failure: FetchFailure, delay: Double)
    /// The progress line (a terminal's stderr), with `active` transfers running.
    func progressLine(active: Int) -> String
    /// What `job` asks for, for `--verbose` (its URL with every secret masked).
    func describe(_ job: Job) -> String
}

extension RequestClient {
    /// No work is finished elsewhere: a client whose ``RequestClient/complete(_:_:result:handle:)``
    /// never answers ``RequestCompletion/deferred`` needs none of these.
    public func takeDeferred() -> Int { 0 }
    public var deferredCount: Int { 0 }
    public func finishDeferred() {}
    /// Nothing to count.
    public func noteBadLines(_ count: Int) {}
    public func noteRetry(_ job: Job, _ failure: FetchFailure, delay: Double) {}
}

extension RequestClient where Transfer == MemoryTransfer {
    /// A transfer into memory leaves nothing behind to remove.
    public func discard(_ transfer: MemoryTransfer) {}
}
