import FetchKit
import FoundationEssentials
import Glibc
import SposureKit

/// The client-side call allowance of one API (`--rate`), kept in the data
/// folder so it lasts across runs and is shared by processes running at once:
/// ten short rounds in an hour spend one hour's allowance, not ten.
///
/// A leaky bucket: the calls `used` lately, draining at `calls` per `period`
/// seconds of wall time; a call may go while fewer than `calls` are used (so a
/// larger `--rate` given later has room at once). Stored in
/// `<data>/budget-<provider>.json` and changed only under an
/// exclusive `flock` of `<data>/budget.lock`; the state is written whole
/// (temporary file, rename). Without a usable data folder it lives in memory,
/// for the run only.
public final class CallBudget {
    /// Calls allowed per ``period`` seconds; 0: no limit.
    public let calls: Int
    public let period: Double
    public let provider: GIFProvider
    private let folder: String?
    private var memory: (used: Double, at: Double)?

    /// A budget of `calls` per `period` seconds for `provider`, kept in
    /// `folder` (nil: for this run only).
    public init(provider: GIFProvider, calls: Int, period: Double, folder: String?) {
        self.provider = provider
        self.calls = calls
        self.period = period
        self.folder = folder.flatMap { (try? Folders.make($0)) != nil ? $0 : nil }
    }

    /// The budget of `provider`'s calls: `rate` (`--rate`), else the
    /// provider's own; kept in `folder` (nil: for this run only).
    public convenience init(provider: GIFProvider, rate: (calls: Int, period: Double)?, folder: String?) {
        let (calls, period) = rate ?? provider.defaultRate
        self.init(provider: provider, calls: calls, period: period, folder: folder)
    }

    /// Whether the budget is kept on disk.
    public var isPersistent: Bool { folder != nil }

    /// Takes one call at wall time `now`: 0 when taken, else the seconds
    /// until one is allowed (nothing taken).
    public func take(now: Double = Date().timeIntervalSince1970) -> Double {
        guard calls > 0 else { return 0 }
        guard let folder else { return takeInMemory(now: now) }
        let lock = open(folder + "/budget.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return takeInMemory(now: now) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            if errno != EINTR { return takeInMemory(now: now) }
        }
        defer { flock(lock, LOCK_UN) }
        let path = folder + "/budget-\(provider.rawValue).json"
        var state = drain(read(path) ?? (0, now), now: now)
        guard state.used + 1 <= Double(calls) else { return wait(state) }
        state.used += 1
        let record = JSONRecord()
        record.set("kind", "budget")
        record.set("provider", provider.rawValue)
        record.set("used", state.used)
        record.set("at", state.at)
        var line = record.serialized()
        line.append(0x0A)
        // Not synced: a whole file replaces the last by rename, and an allowance
        // lost to a crash costs nothing; an fsync a call would stall the transfers.
        try? writeAtomically(line, to: path, as: .program, mode: 0o600, durable: false)
        return 0
    }

    /// The calls the allowance still has at wall time `now`, nothing taken
    /// (`sposure` and `sposure doctor` say it); nil when there is no limit.
    public func left(now: Double = Date().timeIntervalSince1970) -> Int? {
        guard calls > 0 else { return nil }
        let kept = folder.flatMap { read($0 + "/budget-\(provider.rawValue).json") } ?? memory ?? (0, now)
        let state = drain(kept, now: now)
        return max(0, Int((Double(calls) - state.used).rounded(.down)))
    }

    /// Seconds until the next call is allowed at `now`: 0 when one may go.
    public func waitForNext(now: Double = Date().timeIntervalSince1970) -> Double {
        guard calls > 0 else { return 0 }
        let kept = folder.flatMap { read($0 + "/budget-\(provider.rawValue).json") } ?? memory ?? (0, now)
        let state = drain(kept, now: now)
        return state.used + 1 <= Double(calls) ? 0 : wait(state)
    }

    /// The `rate_limited` failure of a page that the spent budget holds back
    /// `wait` seconds: when calls are allowed again, and how to replay it.
    public static func spent(_ budget: CallBudget, wait: Double, now: Date = Date()) -> FetchFailure {
        let at = Date.ISO8601FormatStyle().format(now.addingTimeInterval(wait.rounded(.up)))
        return FetchFailure("rate_limited", """
            the \(budget.provider.displayName) call budget (--rate \(budget.rateText)) is spent: calls are allowed \
            again in \(spoken(wait)) (at \(at)); run these pages then with --retry-errors
            """)
    }

    /// "14m", "2h 5m", "40s".
    public static func spoken(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return "\((total + 59) / 60)m" }
        let minutes = (total % 3600 + 59) / 60
        return minutes == 0 ? "\(total / 3600)h" : "\(total / 3600)h \(minutes)m"
    }

    /// "100/day" and the like, for messages.
    public var rateText: String {
        switch period {
        case 1: return "\(calls)/s"
        case 60: return "\(calls)/m"
        case 3600: return "\(calls)/h"
        case 86400: return "\(calls)/day"
        default: return "\(calls) per \(Int(period))s"
        }
    }

    private func takeInMemory(now: Double) -> Double {
        var state = drain(memory ?? (0, now), now: now)
        defer { memory = state }
        guard state.used + 1 <= Double(calls) else { return wait(state) }
        state.used += 1
        return 0
    }

    private func drain(_ state: (used: Double, at: Double), now: Double) -> (used: Double, at: Double) {
        // A time ahead of now (the clock set back, a hand-edited file) is
        // taken as now, so the allowance always drains; a count past any
        // sense (a damaged file) as a full bucket.
        let at = min(state.at, now)
        let used = state.used.isFinite ? min(max(0, state.used), Double(calls) * 2) : Double(calls)
        let elapsed = max(0, now - at)
        return (max(0, used - elapsed * Double(calls) / period), now)
    }

    /// Seconds until `used` has drained to `calls - 1`.
    private func wait(_ state: (used: Double, at: Double)) -> Double {
        max(0.001, (state.used + 1 - Double(calls)) * period / Double(calls))
    }

    private func read(_ path: String) -> (used: Double, at: Double)? {
        guard let bytes = try? readFile(path, maxBytes: 4096, owner: .program),
              let record = try? bytes.withUnsafeBytes({ try JSONRecord.parse($0) }),
              let used = record.double("used"), let at = record.double("at"),
              used.isFinite, at.isFinite, used >= 0 else { return nil }
        return (used, at)
    }
}
