import RecordKit
/// The hold side of a round: whether the person holds and since when, the
/// last moment accounted for, the exposure counted against the time limit,
/// the stall under way, and what letting go (or a Ctrl-Z) leaves behind.
///
/// A value that ``RoundMachine`` holds and steps. It knows holds and time,
/// nothing of GIFs or of output: what it has to say (a `stall`, a `hold`) it
/// returns as events, and the machine writes them in their place.
struct HoldClock {
    private let onRelease: PlayerConfiguration.OnRelease
    /// `--hold always`: held from the start to the end.
    private let heldThroughout: Bool
    private let limitMs: Int?

    /// Whether the person holds now.
    private(set) var isHeld = false
    /// Whether there was a hold at all.
    private(set) var everHeld = false
    private var downAt = 0
    /// The last moment accounted for.
    private(set) var accountedUntil = 0
    /// Exposure so far, in ms: time held with a GIF on screen.
    private(set) var exposedMs = 0
    /// Since when the round, held, has had nothing to show.
    private var stallStart: Int?
    /// The hold ended because the process stopped (Ctrl-Z), not because the
    /// person let go: the round waits for the next hold whatever
    /// `--on-release` says, and goes on where it was.
    private var suspended = false

    /// The clock of a round played by `configuration` (its hold source,
    /// release action and time limit).
    init(configuration: PlayerConfiguration) {
        onRelease = configuration.onRelease
        heldThroughout = configuration.hold == .always
        limitMs = configuration.timeLimitMs
    }

    // MARK: Rules

    /// Whether letting go ends the round (`--on-release end`).
    var endsOnRelease: Bool { onRelease == .end }

    /// Whether the round is paused between holds rather than over: always
    /// with `--on-release pause`, and after a suspend until the next hold.
    var pausesOnRelease: Bool { onRelease == .pause || suspended }

    /// How a round ends on a virtual clock when nothing more can happen:
    /// `eof` when it was held throughout or never, else `released`.
    var endWhenIdle: EndReason { heldThroughout || !everHeld ? .eof : .released }

    /// Whether the round, held, waits for something to show (the status line says "loading").
    var isStalled: Bool { stallStart != nil }

    // MARK: Holds

    /// The hold starts at `time`: time is accounted from then, and a
    /// suspend before it is over.
    mutating func holdDown(at time: Int) {
        isHeld = true
        everHeld = true
        downAt = time
        accountedUntil = time
        suspended = false
    }

    /// The hold ends at `time`, let go or (`suspending`) stopped by Ctrl-Z;
    /// returns its `hold` event.
    mutating func letGo(at time: Int, suspending: Bool = false) -> RoundEvent {
        isHeld = false
        if suspending { suspended = true }
        return .hold(downMs: downAt, upMs: time)
    }

    // MARK: Time

    /// Counts the time from the last moment accounted for up to `until` as
    /// exposure, or only up to the moment the time limit is reached, when
    /// that comes first. Returns the ms counted and whether the limit was reached.
    mutating func expose(until: Int) -> (ms: Int, limitReached: Bool) {
        if let limitMs, exposedMs + (until - accountedUntil) >= limitMs {
            let end = accountedUntil + (limitMs - exposedMs)
            let ms = end - accountedUntil
            exposedMs = limitMs
            accountedUntil = end
            return (ms, true)
        }
        let ms = until - accountedUntil
        exposedMs += ms
        accountedUntil = until
        return (ms, false)
    }

    /// Held, the round waits up to `time` for the feed to give a GIF: a
    /// stall, unless it is `stopping` at the moment it would begin.
    mutating func waitForFeed(until time: Int, stopping: Bool) {
        if accountedUntil < time || !stopping { stall(from: accountedUntil) }
        accountedUntil = max(accountedUntil, time)
    }

    /// Held, the round waits up to `time` for the next frame to decode: a stall.
    mutating func waitForFrame(until time: Int) {
        stall(from: accountedUntil)
        accountedUntil = max(accountedUntil, time)
    }

    /// The frame waited for is decoded (or the frames ended), seen at `time`:
    /// the stall ends; returns its `stall` event.
    mutating func frameArrived(at time: Int) -> RoundEvent? {
        accountedUntil = max(accountedUntil, time)
        return endStall(at: accountedUntil)
    }

    /// A GIF available from `at`, looked for up to `time` (`stopping`: the
    /// hold ends then): the moment it begins, with the `stall` event of the
    /// wait it ends. Nil when it cannot begin by then (it arrives later, or
    /// the hold ends first): the time up to `time` is then accounted for,
    /// the wait a stall, and the GIF waits.
    mutating func begin(availableAt at: Int, upTo time: Int, stopping: Bool) -> (start: Int, stall: RoundEvent?)? {
        let start = max(accountedUntil, at)
        if stopping && start >= time {
            // Ready, but the hold ends before it can begin: it waits for the next hold.
            if start > accountedUntil { stall(from: accountedUntil) }
            accountedUntil = time
            return nil
        }
        if start > time {
            // Arrives later (virtual clock): a stall until then.
            stall(from: accountedUntil)
            accountedUntil = time
            return nil
        }
        let stall = endStall(at: start)
        accountedUntil = start
        return (start, stall)
    }

    // MARK: Stalls

    /// Held with nothing to show from `start`, unless a stall is already under way.
    private mutating func stall(from start: Int) {
        if stallStart == nil { stallStart = start }
    }

    /// The stall under way, if any, ends at `time`; returns its `stall`
    /// event, none when it took no time.
    mutating func endStall(at time: Int) -> RoundEvent? {
        guard let start = stallStart else { return nil }
        stallStart = nil
        return time > start ? .stall(startMs: start, endMs: time) : nil
    }
}
