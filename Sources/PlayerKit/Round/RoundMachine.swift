/// The round as a state machine on a clock: hold changes, keys and the
/// passing of time go in; events, lines to pass through and what to draw
/// come out, as values, to the `output` it is given. No terminal, no threads,
/// no clock of its own: ``Player`` drives it on real or virtual time, and
/// tests drive it directly.
///
/// Time is milliseconds since the session started. While held, frames play
/// on their absolute schedule (falling behind skips frames rather than
/// slowing), GIF after GIF, and exposure is counted; held with nothing ready
/// to show is a stall. Letting go ends the round (`--on-release end`) or
/// pauses it. Ctrl-Z is not letting go: the hold ends when the process
/// stops, and the round waits, as a pause does, for the next hold after `fg`.
///
/// Every method that can end the round returns the ``EndReason``; the caller
/// then calls ``finish(_:at:)``, which writes the events that close it.
public final class RoundMachine<Feed: RoundFeed> {
    /// The GIFs played.
    public typealias GIF = Feed.GIF

    private let configuration: PlayerConfiguration
    private let feed: Feed
    private let output: (RoundOutput<GIF>) -> Void

    /// Whether the person holds now.
    public private(set) var isHeld = false
    /// Whether there was a hold at all.
    public private(set) var everHeld = false
    private var holdDownAt = 0
    /// The last moment accounted for.
    private var lastAt = 0
    private var exposedTotal = 0
    /// GIFs that have left the screen (their `shown` written); the one on
    /// screen is not among them.
    private var gifsShown = 0
    /// The hold ended because the process stopped (Ctrl-Z), not because the
    /// person let go: the round waits for the next hold whatever
    /// `--on-release` says, and goes on where it was.
    private var suspendedHold = false
    private var stallStart: Int?
    /// A GIF taken from the feed that has not begun: it arrives later
    /// (virtual clock), or the hold ended before it could begin.
    private var waiting: (gif: GIF, at: Int)?
    private var inputEnded = false
    private var promptShown = false
    /// An end found between looks (a hold change told late), given back by
    /// the next ``advance(to:)``.
    private var pendingEnd: (EndReason, Int)?
    /// The last digit rating, to take a held digit's repeats as one press.
    private var lastRated: (id: String, rating: Int, at: Int)?

    private struct Playing {
        var gif: GIF
        var index = 0
        var frameStart: Int
        var loopsDone = 0
        var startMs: Int
        var exposedMs = 0
        var framesShown = 1
        var playedMs = 0
        var pausedLeft: Int?
        var section: String
        /// Frame `index` is over but the next is still decoding (real clock):
        /// it stays on screen, and the wait is a stall.
        var awaitingFrame = false
    }
    private var current: Playing?

    /// A round played by `configuration` (its clock, hold source, release
    /// action, loops, minimum and limit) from `feed`, handing out what
    /// happens to `output`.
    public init(configuration: PlayerConfiguration, feed: Feed, output: @escaping (RoundOutput<GIF>) -> Void) {
        self.configuration = configuration
        self.feed = feed
        self.output = output
    }

    // MARK: What the shell asks

    /// The last moment the round has accounted for.
    public var accountedUntil: Int { lastAt }

    /// Held, with nothing playing or waiting, and more input may come: the
    /// round waits for the feed (a real clock looks again soon; a virtual
    /// one waits in ``advance(to:)``).
    public var isWaitingForInput: Bool { isHeld && current == nil && waiting == nil && !inputEnded }

    /// Paused (`--on-release pause`, or after a suspend) after a hold, with
    /// nothing left to play: the round is over, at the end of its input.
    public var isOverWhilePaused: Bool {
        !isHeld && inputEnded && current == nil && waiting == nil && everHeld && pausesOnRelease
    }

    /// Exposure so far, in ms.
    public var exposedMs: Int { exposedTotal }

    /// GIFs shown so far: those that left the screen and the one on it.
    public var gifsSeen: Int { gifsShown + (current == nil ? 0 : 1) }

    /// Whether the round is paused between holds rather than over: always
    /// with `--on-release pause`, and after a suspend until the next hold.
    private var pausesOnRelease: Bool { configuration.onRelease == .pause || suspendedHold }

    /// How a round ends on a virtual clock when nothing more can happen:
    /// `eof` when it was held throughout or never, else `released`.
    public var endWhenIdle: EndReason { configuration.hold == .always || !everHeld ? .eof : .released }

    /// The next moment something is due while held, looking from `time`: a
    /// frame's end, another look at a frame still decoding, a GIF's arrival.
    public func nextDue(after time: Int) -> Int? {
        var next: Int? = nil
        if isHeld, let current, current.pausedLeft == nil {
            // Waiting for a frame to decode: look again soon.
            next = current.awaitingFrame ? time + 10 : current.frameStart + delay(current.gif, current.index)
        }
        if isHeld, current == nil, let waiting { next = min(next ?? waiting.at, waiting.at) }
        return next
    }

    // MARK: Inputs

    /// The round begins: held at once (`--hold always`), else the prompt.
    public func start() {
        if configuration.hold == .always { setHeld(true, at: 0) } else { showPrompt() }
    }

    /// A key: returns the end it brings, if any.
    public func press(_ key: RoundKey, at time: Int) -> EndReason? {
        switch key {
        case .quit: return .quit
        case .interrupt: return .interrupted
        case .rate(let rating):
            rate(rating, at: time, keyRepeats: true)
            return nil
        }
    }

    /// Rates the GIF on screen (or the one a pause left) `rating`; the hold
    /// goes on. A digit key held down repeats (`keyRepeats`): the same
    /// rating of the same GIF within half a second is that one press. A
    /// ratings script's digits are each a rating.
    public func rate(_ rating: Int, at time: Int, keyRepeats: Bool = false) {
        // Played up to now first: the GIF rated is the one on screen at `time`.
        if isHeld, pendingEnd == nil, let early = advance(to: time) {
            pendingEnd = early
            return
        }
        guard pendingEnd == nil, let playing = current, (0...9).contains(rating) else { return }
        if keyRepeats, let last = lastRated, last.id == playing.gif.id, last.rating == rating, time - last.at < 500 {
            lastRated = (last.id, rating, time)
            return
        }
        lastRated = (playing.gif.id, rating, time)
        emit(.rated(RoundEvent.Rated(provider: playing.gif.provider, id: playing.gif.id, rating: rating,
                                     atMs: max(time, lastAt))))
    }

    /// A scripted hold change: an end it brings is kept for the next
    /// ``advance(to:)``, at the change's moment.
    @discardableResult
    public func scriptedHold(_ hold: ScriptedHold) -> EndReason? {
        guard let reason = setHeld(hold.down, at: hold.atMs) else { return nil }
        pendingEnd = (reason, hold.atMs)
        return reason
    }

    /// The process is about to stop (Ctrl-Z) at `time`. Suspending is not
    /// letting go: the hold ends then (the time stopped is not exposure), the
    /// round does not, and after `fg` it waits, as a pause does, for the next
    /// hold, which goes on where it was, whatever `--on-release` says. Returns
    /// an end only when one came before `time` (a time limit), kept for the
    /// next ``advance(to:)`` unless one was found first.
    public func suspend(at time: Int) -> EndReason? {
        guard isHeld else { return nil }
        if let early = advance(to: time, stopping: true) {
            pendingEnd = pendingEnd ?? early
            return early.0
        }
        suspendedHold = true
        pause(at: time)
        return nil
    }

    /// The hold starts or ends at `time`; returns the end it brings, if any.
    @discardableResult
    public func setHeld(_ down: Bool, at time: Int) -> EndReason? {
        guard down != isHeld else { return nil }
        if down {
            _ = advance(to: time)
            isHeld = true
            everHeld = true
            holdDownAt = time
            lastAt = time
            suspendedHold = false
            if promptShown {
                promptShown = false
                output(.clear)
            }
            if var playing = current, let left = playing.pausedLeft {
                // Resume where the pause left off.
                playing.frameStart = time - (delay(playing.gif, playing.index) - left)
                playing.pausedLeft = nil
                current = playing
                output(.clear)
                output(.draw(playing.gif, frame: frameOnScreen(playing)))
            }
            return nil
        }
        if let early = advance(to: time, stopping: true) {
            pendingEnd = early
            return early.0
        }
        // Ending: finish() writes the GIF, the stall and this hold, in that order.
        if configuration.onRelease == .end { return .released }
        pause(at: time)
        return nil
    }

    /// The hold ends at `time` and the round waits for the next: the hold
    /// is written, the GIF on screen keeps what was left of its frame, and
    /// the screen blanks.
    private func pause(at time: Int) {
        isHeld = false
        endStall(at: time)
        emit(.hold(downMs: holdDownAt, upMs: time))
        if var playing = current {
            playing.pausedLeft = max(0, playing.frameStart + delay(playing.gif, playing.index) - time)
            current = playing
        }
        output(.paused)
    }

    /// Plays from the last moment accounted for up to `time`: frames on their
    /// absolute schedule, GIF after GIF, exposure counted while held. Returns
    /// an end and its moment.
    public func advance(to time: Int) -> (EndReason, Int)? {
        advance(to: time, stopping: false)
    }

    /// ``advance(to:)``; `stopping`: the hold ends (or the round does) at
    /// `time`, so nothing starts at that very moment: no frame, no GIF, no stall.
    private func advance(to time: Int, stopping: Bool) -> (EndReason, Int)? {
        if let pendingEnd { return pendingEnd }
        guard isHeld else { return nil }
        var drawAtEnd = false
        while true {
            if current == nil {
                guard let (gif, at) = nextGIF() else {
                    if inputEnded { return (.eof, lastAt) }
                    if stallStart == nil && (lastAt < time || !stopping) { stallStart = lastAt }
                    lastAt = max(lastAt, time)
                    updateStatus()
                    return nil
                }
                let start = max(lastAt, at)
                if stopping && start >= time {
                    // Ready, but the hold ends before it can begin: keep it for the next hold.
                    waiting = (gif, at)
                    if start > lastAt && stallStart == nil { stallStart = lastAt }
                    lastAt = time
                    return nil
                }
                if start > time {
                    // Arrives later (virtual clock): a stall until then.
                    waiting = (gif, at)
                    if stallStart == nil { stallStart = lastAt }
                    lastAt = time
                    return nil
                }
                waiting = nil
                endStall(at: start)
                lastAt = start
                begin(gif, at: start)
                if configuration.virtualClock {
                    output(.draw(gif, frame: 0))
                    output(.flush)
                } else {
                    drawAtEnd = true
                }
            }
            guard var playing = current else { continue }
            if playing.awaitingFrame {
                guard playing.gif.frameReady(playing.index + 1) != nil else {
                    if stallStart == nil { stallStart = lastAt }
                    lastAt = max(lastAt, time)
                    current = playing
                    break
                }
                // Decoded (or the frames ended): the next starts now, after the stall.
                lastAt = max(lastAt, time)
                endStall(at: lastAt)
                playing.awaitingFrame = false
                playing.frameStart = lastAt - delay(playing.gif, playing.index)
            }
            let due = playing.frameStart + delay(playing.gif, playing.index)
            let until = min(due, time)
            if let limit = configuration.timeLimitMs, exposedTotal + (until - lastAt) >= limit {
                let end = lastAt + (limit - exposedTotal)
                playing.exposedMs += end - lastAt
                playing.playedMs += end - lastAt
                exposedTotal = limit
                lastAt = end
                current = playing
                // A limit that falls exactly on the GIF's end lets it finish.
                if end == due && isLastFrame(playing) { complete(at: due) }
                return (.timeLimit, end)
            }
            playing.exposedMs += until - lastAt
            playing.playedMs += until - lastAt
            exposedTotal += until - lastAt
            lastAt = until
            if due > time || (stopping && due == time && !isLastFrame(playing)) {
                current = playing
                break
            }
            // The frame's time is up: the next frame, the next loop, or the next GIF.
            if !configuration.virtualClock && playing.gif.frameReady(playing.index + 1) == nil {
                // Decoding is behind: not waiting for it here keeps input
                // read (a release is seen when it happens) and the wait off
                // the exposure. (A virtual clock waits: time stands still.)
                playing.awaitingFrame = true
                if stallStart == nil { stallStart = due }
                lastAt = max(lastAt, time)
                current = playing
                break
            }
            playing.index += 1
            playing.frameStart = due
            if !playing.gif.hasFrame(playing.index) {
                playing.loopsDone += 1
                let moreLoops = playing.loopsDone < configuration.loops
                let tooShort = playing.playedMs < configuration.minMs
                if moreLoops || tooShort {
                    playing.index = 0
                } else {
                    current = playing
                    complete(at: due)
                    continue
                }
            }
            let behind = playing.frameStart + delay(playing.gif, playing.index) <= time
            // A still stays on its first frame, drawn once, for the GIF's whole time.
            if (configuration.virtualClock || !behind) && !playing.gif.isStill {
                if configuration.virtualClock {
                    output(.draw(playing.gif, frame: playing.index))
                    output(.flush)
                } else {
                    drawAtEnd = true
                }
                playing.framesShown += 1
            }
            current = playing
        }
        if drawAtEnd, let playing = current { output(.draw(playing.gif, frame: frameOnScreen(playing))) }
        updateStatus()
        return nil
    }

    /// Ends the round at `time` for `reason`: the GIF on screen, the lines
    /// before the next GIF, the stall, the hold and the session end, in that
    /// order. Returns the reason, which a time limit reached first replaces.
    public func finish(_ reason: EndReason, at time: Int) -> EndReason {
        var reason = reason
        var time = time
        if isHeld && pendingEnd == nil && (reason == .quit || reason == .interrupted) {
            // Count the exposure up to this moment; a time limit may have come first.
            if let early = advance(to: time, stopping: true), early.0 == .timeLimit {
                reason = .timeLimit
                time = early.1
            }
        }
        let end = max(time, lastAt)
        if let playing = current {
            current = nil
            emit(shown: playing, end: end, completed: false)
        }
        writeLinesBeforeTheNextGIF()
        endStall(at: end)
        if isHeld { emit(.hold(downMs: holdDownAt, upMs: end)) }
        isHeld = false
        emit(.sessionEnd(atMs: end, reason: reason))
        output(.flush)
        return reason
    }

    /// The screen was set up anew (a resize, `fg`): the frame on screen is
    /// drawn again while held, fitted again first by `refitPlaying` when
    /// given (the GIF and the frame to show; nil keeps the old fit), the
    /// prompt or the pause shown again, the GIF held back for the next hold
    /// fitted again by `refitWaiting` (nil: as it is), and the status line.
    public func relayout(refitPlaying: ((GIF, Int) -> (GIF, Int)?)?, refitWaiting: (GIF) -> GIF?) {
        if refitPlaying == nil, let playing = current {
            if isHeld { output(.draw(playing.gif, frame: frameOnScreen(playing))) }
        } else if var playing = current, let refitPlaying, let (gif, index) = refitPlaying(playing.gif, playing.index) {
            playing.gif = gif
            playing.index = index
            current = playing
            if isHeld { output(.draw(gif, frame: gif.isStill ? 0 : index)) }
        }
        if promptShown {
            showPrompt()
        } else if !isHeld && everHeld && pausesOnRelease {
            output(.paused)
        }
        if let next = waiting, let refitted = refitWaiting(next.gif) {
            waiting = (refitted, next.at)
        }
        updateStatus()
    }

    // MARK: GIFs

    /// A still of one frame shows this long (a still of several shows for
    /// the GIF's whole time, on its first frame).
    public static var singleFrameStillMs: Int { 3000 }

    /// How long frame `index` of `gif` shows: its delay, but the one frame of
    /// a still of one frame shows ``singleFrameStillMs`` at least.
    private func delay(_ gif: GIF, _ index: Int) -> Int {
        let delay = gif.delay(index)
        guard gif.isStill, index == 0, gif.frameReady(1) == false else { return delay }
        return max(delay, Self.singleFrameStillMs)
    }

    /// The frame to draw of `playing`: its first while a still.
    private func frameOnScreen(_ playing: Playing) -> Int { playing.gif.isStill ? 0 : playing.index }

    /// Whether the frame on screen is the GIF's last: its end completes the GIF.
    private func isLastFrame(_ playing: Playing) -> Bool {
        // On a real clock a frame still decoding counts as one more, unwaited for.
        let more = configuration.virtualClock ? playing.gif.hasFrame(playing.index + 1) : playing.gif.frameReady(playing.index + 1) != false
        return !more && playing.loopsDone + 1 >= configuration.loops
            && playing.playedMs >= configuration.minMs
    }

    /// The GIF held back, else the next from the feed, after writing the
    /// lines that come before it; nil when none is ready or the input ended.
    private func nextGIF() -> (GIF, Int)? {
        if let waiting { return (waiting.gif, waiting.at) }
        guard let next = feed.nextGIF(lines: { output(.lines($0)) }) else {
            if feed.isFinished { inputEnded = true }
            return nil
        }
        return (next.gif, next.availableAt)
    }

    private func begin(_ gif: GIF, at time: Int) {
        current = Playing(gif: gif, frameStart: time, startMs: time, section: gif.section)
        // The picture only: the status line stays drawn across GIFs.
        output(.clearPicture)
    }

    private func complete(at time: Int) {
        guard let playing = current else { return }
        // Off the screen before it is counted: counted once, among the GIFs shown.
        current = nil
        emit(shown: playing, end: time, completed: true)
    }

    private func endStall(at time: Int) {
        guard let start = stallStart else { return }
        stallStart = nil
        if time > start { emit(.stall(startMs: start, endMs: time)) }
    }

    /// At the end of the round: the records between the GIF reached last and
    /// the next one (errors about the images after it, say) still reach
    /// stdout, so `score` counts them. Beyond the next GIF nothing is written:
    /// those records, like the GIFs, were not reached, and how far the reading
    /// ahead got depends on timing, where the same input must give the same
    /// events.
    private func writeLinesBeforeTheNextGIF() {
        guard waiting == nil else { return }  // the next GIF is out already, its lines written
        feed.linesBeforeNextGIF(lines: { output(.lines($0)) })
    }

    // MARK: Output

    private func showPrompt() {
        promptShown = true
        output(.prompt)
    }

    private func updateStatus() {
        guard !promptShown else { return }
        output(.status(RoundStatus(exposedMs: exposedTotal, gifsSeen: gifsSeen, section: current?.section ?? "",
                                   loading: stallStart != nil)))
    }

    private func emit(_ event: RoundEvent) {
        output(.event(event))
    }

    /// Writes the `shown` of `playing`, which has left the screen (`current` is no longer it).
    private func emit(shown playing: Playing, end: Int, completed: Bool) {
        gifsShown += 1
        let ladder = playing.gif.ladder
        emit(.shown(RoundEvent.Shown(
            id: playing.gif.id, section: playing.section, query: playing.gif.query, startMs: playing.startMs,
            endMs: end, exposedMs: playing.exposedMs, frames: playing.framesShown, completed: completed,
            ladder: ladder, provider: ladder == nil ? nil : playing.gif.provider)))
        updateStatus()
    }
}
