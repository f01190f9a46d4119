import RecordKit
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
///
/// The state is in two values, one for each idea, so each can be read
/// alone: a ``HoldClock`` (holds, pauses, suspends, the time accounted for,
/// exposure, stalls) and a ``GIFSequence`` (GIFs from the feed, frames,
/// loops). Neither writes anything; the machine keeps the methods that step
/// both and hands out what they return, in order. The play loop that steps
/// them through time, ``advance(to:)``, is in RoundMachine+Playing.swift.
public final class RoundMachine<Feed: RoundFeed> {
    /// The GIFs played.
    public typealias GIF = Feed.GIF

    // Internal, not private: the play loop (RoundMachine+Playing.swift) steps them too.
    let configuration: PlayerConfiguration
    let output: (RoundOutput<GIF>) -> Void
    /// Holds, time, exposure and stalls.
    var clock: HoldClock
    /// GIFs, frames and loops.
    var sequence: GIFSequence<Feed>
    /// An end found between looks (a hold change told late), given back by
    /// the next ``advance(to:)``.
    var pendingEnd: (EndReason, Int)?
    private var promptShown = false
    /// The last digit rating, to take a held digit's repeats as one press.
    private var lastRated: (id: String, rating: Int, at: Int)?
    /// The last x, to take a held x's repeats as one press.
    private var lastOffTopic: Int?
    /// The clips shown so far, to pass over the same clip under another id.
    var clips = RoundClips()

    /// A round played by `configuration` (its clock, hold source, release
    /// action, loops, minimum and limit) from `feed`, handing out what
    /// happens to `output`.
    public init(configuration: PlayerConfiguration, feed: Feed, output: @escaping (RoundOutput<GIF>) -> Void) {
        self.configuration = configuration
        self.output = output
        clock = HoldClock(configuration: configuration)
        sequence = GIFSequence(feed: feed, configuration: configuration)
    }

    // MARK: What the shell asks

    /// Whether the person holds now.
    public var isHeld: Bool { clock.isHeld }

    /// Whether there was a hold at all.
    public var everHeld: Bool { clock.everHeld }

    /// The last moment the round has accounted for.
    public var accountedUntil: Int { clock.accountedUntil }

    /// Held, with nothing playing or waiting, and more input may come: the
    /// round waits for the feed (a real clock looks again soon; a virtual
    /// one waits in ``advance(to:)``).
    public var isWaitingForInput: Bool { clock.isHeld && sequence.waitsForFeed }

    /// Paused (`--on-release pause`, or after a suspend) after a hold, with
    /// nothing left to play: the round is over, at the end of its input.
    public var isOverWhilePaused: Bool {
        !clock.isHeld && sequence.isExhausted && clock.everHeld && clock.pausesOnRelease
    }

    /// Exposure so far, in ms.
    public var exposedMs: Int { clock.exposedMs }

    /// GIFs shown so far: those that left the screen and the one on it.
    public var gifsSeen: Int { sequence.gifsSeen }

    /// How a round ends on a virtual clock when nothing more can happen:
    /// `eof` when it was held throughout or never, else `released`.
    public var endWhenIdle: EndReason { clock.endWhenIdle }

    /// The next moment something is due while held, looking from `time`: a
    /// frame's end, another look at a frame still decoding, a GIF's arrival.
    /// On a real clock, also the moment the exposure reaches its next whole
    /// second while a GIF plays, so the status line's timer moves each
    /// second (a GIF whose frame lasts 3 s left it at "0s": issue 29 #9).
    public func nextDue(after time: Int) -> Int? {
        guard clock.isHeld else { return nil }
        let due = sequence.nextDue(after: time)
        guard !configuration.virtualClock, sequence.isPlaying, !clock.isStalled else { return due }
        let tick = time + (1000 - clock.exposedMs % 1000)
        return min(due ?? tick, tick)
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
        case .offTopic:
            markOffTopic(at: time, keyRepeats: true)
            return nil
        }
    }

    /// How long after an x another x is taken for the same key held down
    /// (autorepeat starts after 0.25–0.7 s and goes on while held): it
    /// would end the next GIF unseen.
    static var offTopicRepeatMs: Int { 1000 }

    /// Marks the GIF on screen (or the one a pause left) off-topic: an
    /// `off_topic` event, then it ends there (its `shown`, not completed)
    /// and the next one plays; the hold goes on. A key held down repeats
    /// (`keyRepeats`): an x within ``offTopicRepeatMs`` of the last is that
    /// same press. A script's keys are each a press.
    public func markOffTopic(at time: Int, keyRepeats: Bool = false) {
        // Played up to now first: the GIF marked is the one on screen at `time`.
        if clock.isHeld, pendingEnd == nil, let early = advance(to: time) {
            pendingEnd = early
            return
        }
        guard pendingEnd == nil, let gif = sequence.gif else { return }
        if keyRepeats, let last = lastOffTopic, time - last < Self.offTopicRepeatMs {
            lastOffTopic = time
            return
        }
        lastOffTopic = time
        let at = max(time, clock.accountedUntil)
        emit(.offTopic(OffTopicMark(provider: gif.provider, id: gif.id, title: gif.title, atMs: at, query: gif.query,
                                    hash: gif.clipHash?.first.gradient.hex, hashDCT: gif.clipHash?.first.cosine.hex)))
        if let shown = sequence.takeOff(at: at, completed: false) { emit(shown) }
        gif.discard()
        // Its picture goes at once, even when the next one is not ready yet.
        if clock.isHeld { output(.clearPicture) }
        updateStatus()
    }

    /// Rates the GIF on screen (or the one a pause left) `rating`; the hold
    /// goes on. A digit key held down repeats (`keyRepeats`): the same
    /// rating of the same GIF within half a second is that one press. A
    /// ratings script's digits are each a rating.
    public func rate(_ rating: Int, at time: Int, keyRepeats: Bool = false) {
        // Played up to now first: the GIF rated is the one on screen at `time`.
        if clock.isHeld, pendingEnd == nil, let early = advance(to: time) {
            pendingEnd = early
            return
        }
        guard pendingEnd == nil, let gif = sequence.gif, (0...9).contains(rating) else { return }
        if keyRepeats, let last = lastRated, last.id == gif.id, last.rating == rating, time - last.at < 500 {
            lastRated = (last.id, rating, time)
            return
        }
        lastRated = (gif.id, rating, time)
        emit(.rated(RoundEvent.Rated(provider: gif.provider, id: gif.id, rating: rating,
                                     atMs: max(time, clock.accountedUntil))))
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
        guard clock.isHeld else { return nil }
        if let early = advance(to: time, stopping: true) {
            pendingEnd = pendingEnd ?? early
            return early.0
        }
        pause(at: time, suspending: true)
        return nil
    }

    /// The hold starts or ends at `time`; returns the end it brings, if any.
    @discardableResult
    public func setHeld(_ down: Bool, at time: Int) -> EndReason? {
        guard down != clock.isHeld else { return nil }
        if down {
            _ = advance(to: time)
            clock.holdDown(at: time)
            if promptShown {
                promptShown = false
                output(.clear)
            }
            // A paused GIF goes on where the pause left it.
            if sequence.resume(at: time), let shown = sequence.onScreen {
                output(.clear)
                output(.draw(shown.gif, frame: shown.frame))
            }
            return nil
        }
        if let early = advance(to: time, stopping: true) {
            pendingEnd = early
            return early.0
        }
        // Ending: finish() writes the GIF, the stall and this hold, in that order.
        if clock.endsOnRelease { return .released }
        pause(at: time)
        return nil
    }

    /// The hold ends at `time` (let go, or stopped by Ctrl-Z when
    /// `suspending`) and the round waits for the next: the hold is written,
    /// the GIF on screen keeps what was left of its frame, and the screen blanks.
    private func pause(at time: Int, suspending: Bool = false) {
        let hold = clock.letGo(at: time, suspending: suspending)
        endStall(at: time)
        emit(hold)
        sequence.pause(at: time)
        output(.paused)
    }

    /// Ends the round at `time` for `reason`: the GIF on screen, the lines
    /// before the next GIF, the stall, the hold and the session end, in that
    /// order. Returns the reason, which a time limit reached first replaces.
    public func finish(_ reason: EndReason, at time: Int) -> EndReason {
        var reason = reason
        var time = time
        if clock.isHeld && pendingEnd == nil && (reason == .quit || reason == .interrupted) {
            // Count the exposure up to this moment; a time limit may have come first.
            if let early = advance(to: time, stopping: true), early.0 == .timeLimit {
                reason = .timeLimit
                time = early.1
            }
        }
        let end = max(time, clock.accountedUntil)
        if let shown = sequence.takeOff(at: end, completed: false) { emit(shown) }
        sequence.linesBeforeTheNextGIF(lines: { output(.lines($0)) })
        endStall(at: end)
        if clock.isHeld { emit(clock.letGo(at: end)) }
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
        if refitPlaying == nil, let shown = sequence.onScreen {
            if clock.isHeld { output(.draw(shown.gif, frame: shown.frame)) }
        } else if let position = sequence.position, let refitPlaying,
                  let (gif, index) = refitPlaying(position.gif, position.index) {
            sequence.refitted(gif, index: index)
            if clock.isHeld { output(.draw(gif, frame: gif.isStill ? 0 : index)) }
        }
        if promptShown {
            showPrompt()
        } else if !clock.isHeld && clock.everHeld && clock.pausesOnRelease {
            output(.paused)
        }
        if let next = sequence.waiting, let refitted = refitWaiting(next.gif) {
            sequence.holdBack(refitted, at: next.at)
        }
        updateStatus()
    }

    // MARK: Output

    /// Ends the stall under way, if any, at `time`, and writes it.
    func endStall(at time: Int) {
        if let stall = clock.endStall(at: time) { emit(stall) }
    }

    private func showPrompt() {
        promptShown = true
        output(.prompt)
    }

    /// The status line, which the prompt hides.
    func updateStatus() {
        guard !promptShown else { return }
        output(.status(RoundStatus(exposedMs: clock.exposedMs, gifsSeen: sequence.gifsSeen, section: sequence.section,
                                   loading: clock.isStalled, waitingForMore: sequence.waitsForFeed, credit: sequence.credit)))
    }

    /// Writes `event`.
    func emit(_ event: RoundEvent) {
        output(.event(event))
    }

    /// Writes the `shown` of a GIF that has left the screen, and the status line that counts it.
    func emit(_ shown: RoundEvent.Shown) {
        emit(.shown(shown))
        updateStatus()
    }
}
