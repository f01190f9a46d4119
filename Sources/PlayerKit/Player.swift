import RecordKit
import FoundationEssentials
import Glibc
import GIFEngine
import LadderKit
import SposureKit

//  gif-play, the frame player:
//
//  stdin ─reader─▶ [input queue] ─▶ preloader (giflib, scaling) ─▶ [gif buffer] ─┐
//                                    └─▶ finisher (the rest of each GIF, on demand) ─┤
//                       refit (the rest of a GIF fitted again on resize, on demand) ─┤
//                                                                                 ▼
//  /dev/tty keys, mouse ─▶ InputParser ─▶ HoldTracker ─────────────────────▶ player (this thread)
//  signals, SIGWINCH, Ctrl-Z ─▶ trap thread ─▶ flags ──────────────────────▶   │ RoundMachine: holds, keys,
//                                                                                │ time in; events, drawing out
//                                                                                ├──▶ /dev/tty (Screen, renderer)
//  stdout ◀──writer── [output queue] ◀── events, records passed through ◀───────┘
//
//  Time is milliseconds since the session started, on a monotonic clock, or on
//  a virtual one that jumps from one due moment to the next (no sleeping).

/// Plays one round on a terminal (or headless): reads keys, mouse and
/// scripted holds, keeps the clock, and drives the ``RoundMachine``, whose
/// events go to the stage's output and whose pictures go to the ``Screen``.
public final class Player: @unchecked Sendable {
    let stage: Stage
    let configuration: PlayerConfiguration
    private let preloader: Preloader
    let screen: Screen
    let terminal: Terminal?
    private let script: [ScriptedHold]
    private var scriptIndex = 0
    /// Keys the hold script presses (x).
    private let scriptedKeys: [ScriptedKey]
    private var keyIndex = 0
    var parser = InputParser()
    var tracker: HoldTracker
    let started = monotonicNanoseconds()
    private var virtualNow = 0
    private let output: PlayerOutput
    let feed: PreloaderFeed
    let machine: RoundMachine<PreloaderFeed>
    /// Ratings read from `--ratings script:FILE`.
    let ratingScript: RatingScript?
    private var ratedIndex = 0
    /// The first GIF's record carries `ladder`: a ladder round (the notice, the questions).
    public internal(set) var isLadderRound = false
    /// The feared outcome in the ladder's words, for the question.
    var expectation: String?

    /// Flags set by the signal thread.
    private let flags = PlayerFlags()

    /// A player reading from `preloader`, drawing on `screen`, writing events to `stage`.
    public init(stage: Stage, configuration: PlayerConfiguration, preloader: Preloader, screen: Screen,
                terminal: Terminal?, script: [ScriptedHold], keys: [ScriptedKey] = [], exactKeys: Bool,
                ratingScript: RatingScript? = nil) {
        self.stage = stage
        self.configuration = configuration
        self.preloader = preloader
        self.screen = screen
        self.terminal = terminal
        self.script = script
        scriptedKeys = keys
        self.ratingScript = ratingScript
        tracker = HoldTracker(source: configuration.hold, thresholds: configuration.thresholds)
        tracker.exactKeys = exactKeys
        let output = PlayerOutput(stage: stage, screen: screen)
        self.output = output
        feed = PreloaderFeed(preloader: preloader, virtualClock: configuration.virtualClock, lookAhead: configuration.buffer)
        machine = RoundMachine(configuration: configuration, feed: feed, output: output.apply)
    }

    /// Asks the player to re-fit the picture at once (SIGWINCH).
    public func noteResize() {
        flags.set(resize: true)
        terminal?.wake()
    }

    /// Ctrl-Z, just before the process stops: the hold ends at this moment,
    /// so the time stopped is not counted as exposure; the round waits for
    /// the next hold after `fg`.
    public func noteSuspend() {
        flags.set(suspendedAt: elapsedMilliseconds(since: started))
    }

    /// `fg`: the terminal was set up again; draw everything anew.
    public func noteContinue() {
        flags.set(redraw: true)
        terminal?.wake()
    }

    /// Whether the terminal was set up again after `fg` since last asked: a
    /// screen that waits for a key (the notice, a question) draws itself again.
    func takeRedraw() -> Bool { flags.takeRedraw() }

    // MARK: Clock

    var now: Int {
        configuration.virtualClock ? virtualNow : elapsedMilliseconds(since: started)
    }

    // MARK: The round

    /// Exposure so far, in ms (the round's, once it has ended).
    public var exposedMs: Int { machine.exposedMs }

    /// GIFs shown so far (each `shown` written, and the one on screen).
    public var gifsShown: Int { machine.gifsSeen }

    /// Plays until the round ends; returns why. A ladder round (its first
    /// GIF's record carries `ladder`) shows the safety notice first until it
    /// is accepted, and asks the ratings before the first hold and after the
    /// round (``RatingForm``); other rounds ask nothing.
    public func run() -> EndReason {
        if let size = terminal?.size() { lastPixels = (size.pixelWidth, size.pixelHeight) }
        sessionStart()
        if let reason = beforeTheRound() { return machine.finish(reason, at: now) }
        machine.start()
        if tracker.isHeld { machine.setHeld(true, at: now) }  // held while the first GIF was coming
        let reason = play()
        afterTheRound(reason)
        return reason
    }

    /// The round, from the prompt to its end.
    private func play() -> EndReason {
        while true {
            if stage.stopReason != nil || terminal?.hungUp == true { return machine.finish(.interrupted, at: now) }
            if let at = flags.takeSuspended(), let reason = suspended(at: at) { return machine.finish(reason, at: at) }
            let redraw = flags.takeRedraw()
            if flags.takeResize() || redraw { relayout(redraw: redraw) }
            let time = now
            applyScript(upTo: time)
            applyRatedScript(upTo: time)
            applyScriptedKeys(upTo: time)
            if let reason = readInput(at: time) { return machine.finish(reason, at: time) }
            if let reason = machine.advance(to: time) {
                // A stop that came while the round waited for input closed the
                // gif buffer (a virtual clock waits there): the end is the stop's.
                if stage.stopReason != nil { return machine.finish(.interrupted, at: now) }
                return machine.finish(reason.0, at: reason.1)
            }
            if machine.isOverWhilePaused { return machine.finish(.eof, at: time) }
            screen.flush()
            if let reason = waitForNext(from: time) { return machine.finish(reason, at: now) }
        }
    }

    /// Moves time on to the next thing due: real time waits on the terminal;
    /// virtual time jumps.
    private func waitForNext(from time: Int) -> EndReason? {
        var next = machine.nextDue(after: time)
        if scriptIndex < script.count { next = min(next ?? script[scriptIndex].atMs, script[scriptIndex].atMs) }
        if let rated = ratingScript?.rated, ratedIndex < rated.count, machine.isHeld || scriptIndex < script.count {
            next = min(next ?? rated[ratedIndex].atMs, rated[ratedIndex].atMs)
        }
        if keyIndex < scriptedKeys.count, machine.isHeld || scriptIndex < script.count {
            next = min(next ?? scriptedKeys[keyIndex].atMs, scriptedKeys[keyIndex].atMs)
        }
        if let deadline = tracker.releaseDeadline { next = min(next ?? deadline, deadline) }
        if configuration.virtualClock {
            if let next {
                virtualNow = max(virtualNow, next)
                return nil
            }
            // Nothing due: in virtual time only new input can move us on.
            if machine.isWaitingForInput { return nil }  // advance() blocks for it
            if !machine.isHeld && scriptIndex >= script.count { return machine.endWhenIdle }
            return nil
        }
        var timeout = next.map { max(0, $0 - time) } ?? 250
        if machine.isWaitingForInput { timeout = min(timeout, 10) }  // stalled: look again soon
        if parser.hasPending { timeout = min(timeout, 30) }
        if terminal?.canRead == true {
            if let bytes = terminal?.read(timeoutMs: timeout), !bytes.isEmpty { pendingInput.append(contentsOf: bytes) }
        } else if timeout > 0 {
            usleep(UInt32(min(timeout, 250)) * 1000)
        }
        return nil
    }

    var pendingInput: [UInt8] = []
    /// Since when the parser holds an unfinished escape sequence.
    private var escapeSince: Int?
    /// How long an unfinished escape sequence waits for the rest of its bytes
    /// before its ESC counts as the Esc key: a mouse report split across reads
    /// (over ssh, through tmux) must not end the round.
    static let escapeWaitMs = 50

    /// Keys, mouse and focus since the last look; nil unless they end the round.
    private func readInput(at time: Int) -> EndReason? {
        guard terminal?.canRead == true, !configuration.virtualClock else { return nil }
        for event in parsedEvents(at: time) {
            if case .key(let code, let kind) = event, kind != .release {
                switch (StopKey(code: code), code) {
                case (.quit, _): if let reason = machine.press(.quit, at: time) { return reason }
                case (.interrupt, _): if let reason = machine.press(.interrupt, at: time) { return reason }
                case (.suspend, _): terminal?.suspendForeground()
                case (nil, 48...57) where kind == .press:
                    // A digit rates the GIF on screen; SPACE held meanwhile is still held.
                    tracker.otherKey(at: time)
                    if let reason = machine.press(.rate(Int(code) - 48), at: time) { return reason }
                case (nil, 120) where kind == .press, (nil, 88) where kind == .press:
                    // x marks the GIF on screen off-topic and ends it; the hold goes on.
                    tracker.otherKey(at: time)
                    if let reason = machine.press(.offTopic, at: time) { return reason }
                default: break
                }
            }
            guard configuration.hold.isByPerson else { continue }
            if tracker.handle(event, at: time) { if let reason = machine.setHeld(tracker.isHeld, at: time) { return reason } }
        }
        if tracker.tick(at: time) { if let reason = machine.setHeld(tracker.isHeld, at: time) { return reason } }
        return nil
    }

    /// The input read since the last look, parsed; an Esc alone is let out
    /// once ``escapeWaitMs`` passed without the rest of a sequence.
    func parsedEvents(at time: Int) -> [InputEvent] {
        let arrived = !pendingInput.isEmpty
        var events = parser.feed(pendingInput)
        pendingInput.removeAll()
        if !parser.hasPending {
            escapeSince = nil
        } else if arrived || escapeSince == nil {
            escapeSince = time
        } else if let since = escapeSince, time - since >= Self.escapeWaitMs {
            events += parser.flushPendingEscape()
            escapeSince = nil
        }
        return events
    }

    /// Digits of `--ratings script:FILE` due by `time`, pressed at their moment.
    private func applyRatedScript(upTo time: Int) {
        guard let rated = ratingScript?.rated else { return }
        while ratedIndex < rated.count && rated[ratedIndex].atMs <= time {
            let (at, rating) = rated[ratedIndex]
            ratedIndex += 1
            machine.rate(rating, at: at)
        }
    }

    /// Keys of the hold script due by `time` (x), pressed at their moment.
    private func applyScriptedKeys(upTo time: Int) {
        while keyIndex < scriptedKeys.count && scriptedKeys[keyIndex].atMs <= time {
            let key = scriptedKeys[keyIndex]
            keyIndex += 1
            if key.key == .offTopic { machine.markOffTopic(at: key.atMs) }
        }
    }

    private func applyScript(upTo time: Int) {
        while scriptIndex < script.count && script[scriptIndex].atMs <= time {
            let hold = script[scriptIndex]
            scriptIndex += 1
            if machine.scriptedHold(hold) != nil { return }
        }
    }

    /// The process is about to stop (Ctrl-Z) at `time`: a hold by mouse or
    /// keys ends then, and the round waits for the next hold after `fg`
    /// (suspending is not letting go). Returns an end only when one came
    /// before (a time limit).
    private func suspended(at time: Int) -> EndReason? {
        guard !configuration.virtualClock, configuration.hold.isByPerson else { return nil }
        let at = max(time, machine.accountedUntil)
        guard tracker.handle(.focus(false), at: at) else { return nil }
        return machine.suspend(at: at)
    }

    // MARK: Screen

    /// The terminal's size in pixels at the last layout (0 when it does not say).
    private var lastPixels = (0, 0)

    /// A new size (or, with `redraw`, a terminal set up again after `fg`):
    /// the screen is drawn anew and the GIFs fitted again if the size changed.
    private func relayout(redraw: Bool = false) {
        guard let size = terminal?.size() else { return }
        // Cells and pixels: the graphics renderers fit pictures to the cell's pixel size.
        let pixels = (size.pixelWidth, size.pixelHeight)
        guard redraw || size.cols != screen.columns || size.rows != screen.rows || pixels != lastPixels else { return }
        lastPixels = pixels
        screen.resize(columns: size.cols, rows: size.rows)
        let cellPixels = size.pixelWidth > 0 ? CellSize(width: size.pixelWidth / size.cols, height: size.pixelHeight / size.rows) : nil
        let layout = screen.layout(background: configuration.background, cellPixels: cellPixels)
        let refit = layout != preloader.layout
        preloader.layout = layout
        let preloader = preloader
        machine.relayout(
            refitPlaying: !refit ? nil : { gif, index in
                guard let refitted = preloader.refit(gif, through: index) else { return nil }
                // The new fit has the frames through this one now, unless the file changed and lost it.
                return (refitted, refitted.hasFrame(index) ? index : max(0, refitted.frames.decoded - 1))
            },
            // The GIF held back for the next hold is fitted again too.
            refitWaiting: { gif in gif.layout != preloader.layout ? preloader.refit(gif) : nil })
    }

    // MARK: Events

    private func sessionStart() {
        let start = RoundEvent.SessionStart(
            at: configuration.startAt ?? (configuration.virtualClock ? nil : Self.isoNow()),
            clock: configuration.virtualClock ? "virtual" : "real", hold: configuration.hold.name,
            renderer: screen.rendererName, symbols: screen.symbols?.rawValue, cols: screen.columns, rows: screen.rows, onRelease: configuration.onRelease.rawValue)
        stage.output.push(RoundEvent.sessionStart(start).record.serialized())
    }

    static func isoNow() -> String {
        Date.ISO8601FormatStyle().format(Date())
    }
}
