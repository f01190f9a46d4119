import NetKit
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
/// (temporary file, rename).
///
/// What cannot be kept as it is, is said once through ``report`` and the run
/// goes on: a file dated in the future (a clock set back, an edited file) is
/// repaired to now and written back, or it would never drain; a file that is
/// no budget starts again from nothing used; and a data folder that cannot
/// keep the budget (read-only, not creatable) leaves it in memory for the
/// run, starting from what the file says when it can be read.
public final class CallBudget {
    /// Calls allowed per ``period`` seconds; 0: no limit.
    public let calls: Int
    public let period: Double
    public let provider: GIFProvider
    /// Where the budget is kept; nil once it is kept in memory.
    private var folder: String?
    private var memory: (used: Double, at: Double)?
    /// Why the folder cannot keep the budget, found before the first call
    /// (said at the first call, when ``report`` is set).
    private var unusable: String?
    /// The kinds of problem already said (each once a run).
    private var said: Set<String> = []
    /// Where problems with the kept budget are said: one line each, once a
    /// run (`giphy-pages` gives its stderr warnings).
    public var report: ((String) -> Void)?

    /// A budget of `calls` per `period` seconds for `provider`, kept in
    /// `folder` (nil: for this run only, without a word).
    public init(provider: GIFProvider, calls: Int, period: Double, folder: String?) {
        self.provider = provider
        self.calls = calls
        self.period = period
        self.folder = folder
        if let folder {
            do {
                try Folders.make(folder)
            } catch {
                unusable = error.description
            }
        }
    }

    /// The budget of `provider`'s calls: `rate` (`--rate`), else the
    /// provider's own; kept in `folder` (nil: for this run only).
    public convenience init(provider: GIFProvider, rate: (calls: Int, period: Double)?, folder: String?) {
        let (calls, period) = rate ?? provider.defaultRate
        self.init(provider: provider, calls: calls, period: period, folder: folder)
    }

    /// Whether the budget is kept on disk (so far: a folder that turns out
    /// not to keep it makes it a budget of this run).
    public var isPersistent: Bool { folder != nil && unusable == nil }

    /// Takes one call at wall time `now`: 0 when taken, else the seconds
    /// until one is allowed (nothing taken).
    public func take(now: Double = Date().timeIntervalSince1970) -> Double {
        guard calls > 0 else { return 0 }
        guard let folder else { return takeInMemory(now: now) }
        if let unusable { return keepInMemory(because: unusable, seeded: nil, now: now) }
        let lockPath = DataStore(root: folder).budgetLock
        let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        let path = DataStore(root: folder).budget(provider.rawValue)
        guard lock >= 0 else {
            let reason = "cannot open \(lockPath): \(String(cString: strerror(errno)))"
            return keepInMemory(because: reason, seeded: try? load(path), now: now)
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            if errno != EINTR {
                let reason = "cannot lock \(lockPath): \(String(cString: strerror(errno)))"
                return keepInMemory(because: reason, seeded: try? load(path), now: now)
            }
        }
        defer { flock(lock, LOCK_UN) }
        var repaired = false
        var state: (used: Double, at: Double)
        do {
            state = try load(path) ?? (0, now)
        } catch {
            say("damaged", "the \(provider.displayName) call budget \(path) is not a budget (\(error.reason)): started again from no calls used")
            state = (0, now)
            repaired = true
        }
        if state.at > now {
            // Never drained: each call would measure from a time still to
            // come. Taken as now, and written back even when spent.
            say("future", "the \(provider.displayName) call budget \(path) was dated \(Self.spoken(state.at - now)) ahead of the clock (a clock set back, or an edited file): repaired, its time taken as now")
            repaired = true
        }
        state = drain(state, now: now)
        guard state.used + 1 <= Double(calls) else {
            if repaired { _ = store(state, at: path) }
            return wait(state)
        }
        state.used += 1
        if let reason = store(state, at: path) {
            // The call is taken; later ones are counted in memory.
            return keepInMemory(because: reason, seeded: state, now: now, taken: true)
        }
        return 0
    }

    /// Why a budget file is not read: its words.
    struct LoadError: Error {
        var reason: String
    }

    /// The state kept at `path`; nil when there is none; throws when what is there is no budget.
    private func load(_ path: String) throws(LoadError) -> (used: Double, at: Double)? {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path, maxBytes: 4096, owner: .program)
        } catch {
            if error.isMissing { return nil }
            throw LoadError(reason: error.reason)
        }
        let record: JSONRecord
        do {
            record = try JSONRecord.parse(bytes)
        } catch {
            throw LoadError(reason: "not JSON: \(error.message)")
        }
        guard let budget = BudgetRecord(record: record) else {
            throw LoadError(reason: "no \"used\" of 0 or more and \"at\" time")
        }
        return (budget.used, budget.at)
    }

    /// Writes `state` whole to `path`; the reason when it cannot be.
    private func store(_ state: (used: Double, at: Double), at path: String) -> String? {
        var line = BudgetRecord(provider: provider.rawValue, used: state.used, at: state.at).record().serialized()
        line.append(0x0A)
        // Not synced: a whole file replaces the last by rename, and an allowance
        // lost to a crash costs nothing; an fsync a call would stall the transfers.
        do {
            try writeAtomically(line, to: path, as: .program, mode: 0o600, durable: false)
        } catch {
            return error.description
        }
        return nil
    }

    /// From now on the budget is this run's: said once, with `reason`;
    /// `seeded` (what the file said) is where it starts. Takes the call
    /// unless it was `taken` already.
    private func keepInMemory(because reason: String, seeded: (used: Double, at: Double)?, now: Double, taken: Bool = false) -> Double {
        folder = nil
        unusable = nil
        say("unusable", "the \(provider.displayName) call budget cannot be kept in the data folder (\(reason)): --rate \(rateText) counts this run's calls only; set SPOSURE_DATA to a folder that can be written")
        if let seeded { memory = seeded }
        return taken ? 0 : takeInMemory(now: now)
    }

    /// Says `message` through ``report``, once a run for each `kind`.
    private func say(_ kind: String, _ message: String) {
        guard said.insert(kind).inserted else { return }
        report?(message)
    }

    /// The calls the allowance still has at wall time `now`, nothing taken
    /// (`sposure` and `sposure doctor` say it); nil when there is no limit.
    public func left(now: Double = Date().timeIntervalSince1970) -> Int? {
        guard calls > 0 else { return nil }
        let kept = folder.flatMap { try? load(DataStore(root: $0).budget(provider.rawValue)) } ?? memory ?? (0, now)
        let state = drain(kept, now: now)
        return max(0, Int((Double(calls) - state.used).rounded(.down)))
    }

    /// Seconds until the next call is allowed at `now`: 0 when one may go.
    public func waitForNext(now: Double = Date().timeIntervalSince1970) -> Double {
        guard calls > 0 else { return 0 }
        let kept = folder.flatMap { try? load(DataStore(root: $0).budget(provider.rawValue)) } ?? memory ?? (0, now)
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
}
