import Foundation
import GIFEngine
import SposureKit

//  gif-play, the frame player:
//
//  stdin ─reader─▶ [input queue] ─▶ preloader (giflib, scaling) ─▶ [gif buffer] ─┐
//                                    └─▶ finisher (the rest of each GIF, on demand) ─┤
//                       refit (the rest of a GIF fitted again on resize, on demand) ─┤
//                                                                                 ▼
//  /dev/tty keys, mouse ─▶ InputParser ─▶ HoldTracker ─────────────────────▶ player (this thread)
//  signals, SIGWINCH, Ctrl-Z ─▶ trap thread ─▶ flags ──────────────────────▶   │ frames on an absolute schedule
//                                                                                ├──▶ /dev/tty (renderer)
//  stdout ◀──writer── [output queue] ◀── events, records passed through ◀───────┘
//
//  Time is milliseconds since the session started, on a monotonic clock, or on
//  a virtual one that jumps from one due moment to the next (no sleeping).

/// Plays one round: GIFs while the person holds, events out.
public final class Player: @unchecked Sendable {
    private let stage: Stage
    private let configuration: PlayerConfiguration
    private let preloader: Preloader
    private let screen: Screen
    private let terminal: Terminal?
    private let script: [ScriptedHold]
    private var scriptIndex = 0
    private var parser = InputParser()
    private var tracker: HoldTracker
    private let started = monotonicNanoseconds()
    private var virtualNow = 0

    // The round.
    private var held = false
    private var holdDownAt = 0
    private var lastAt = 0
    private var exposedTotal = 0
    private var gifsShown = 0
    private var stallStart: Int?
    private var waiting: (gif: PreparedGIF, at: Int)?
    private var inputEnded = false
    private var promptShown = false
    private var everHeld = false

    private struct Playing {
        var gif: PreparedGIF
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

    /// Flags set by the signal thread.
    private let flags = PlayerFlags()

    /// A player reading from `preloader`, drawing on `screen`, writing events to `stage`.
    public init(stage: Stage, configuration: PlayerConfiguration, preloader: Preloader, screen: Screen,
                terminal: Terminal?, script: [ScriptedHold], exactKeys: Bool) {
        self.stage = stage
        self.configuration = configuration
        self.preloader = preloader
        self.screen = screen
        self.terminal = terminal
        self.script = script
        tracker = HoldTracker(source: configuration.hold, thresholds: configuration.thresholds)
        tracker.exactKeys = exactKeys
    }

    /// Asks the player to re-fit the picture at once (SIGWINCH).
    public func noteResize() {
        flags.set(resize: true)
        terminal?.wake()
    }

    /// Ctrl-Z, just before the process stops: a release at this moment (as
    /// losing focus is), so the time stopped is not counted as exposure.
    public func noteSuspend() {
        flags.set(suspendedAt: Int((monotonicNanoseconds() - started) / 1_000_000))
    }

    /// `fg`: the terminal was set up again; draw everything anew.
    public func noteContinue() {
        flags.set(redraw: true)
        terminal?.wake()
    }

    // MARK: Clock

    private var now: Int {
        configuration.virtualClock ? virtualNow : Int((monotonicNanoseconds() - started) / 1_000_000)
    }

    // MARK: The round

    /// Plays until the round ends; returns why.
    public func run() -> EndReason {
        if let size = terminal?.size() { lastPixels = (size.pixelWidth, size.pixelHeight) }
        sessionStart()
        if configuration.hold == .always { setHeld(true, at: 0) } else { showPrompt() }
        while true {
            if stage.stopReason != nil || terminal?.hungUp == true { return finish(.interrupted, at: now) }
            if let at = flags.takeSuspended(), let reason = suspended(at: at) { return finish(reason, at: at) }
            let redraw = flags.takeRedraw()
            if flags.takeResize() || redraw { relayout(redraw: redraw) }
            let time = now
            applyScript(upTo: time)
            if let reason = readInput(at: time) { return finish(reason, at: time) }
            if let reason = advance(to: time) { return finish(reason.0, at: reason.1) }
            if !held && inputEnded && current == nil && waiting == nil && everHeld && configuration.onRelease == .pause {
                return finish(.eof, at: time)
            }
            screen.flush()
            if let reason = waitForNext(from: time) { return finish(reason, at: now) }
        }
    }

    /// Moves time on to the next thing due: real time waits on the terminal;
    /// virtual time jumps.
    private func waitForNext(from time: Int) -> EndReason? {
        var next: Int? = nil
        if held, let current, current.pausedLeft == nil {
            // Waiting for a frame to decode: look again soon.
            next = current.awaitingFrame ? time + 10 : current.frameStart + current.gif.delay(current.index)
        }
        if held, current == nil, let waiting { next = min(next ?? waiting.at, waiting.at) }
        if scriptIndex < script.count { next = min(next ?? script[scriptIndex].atMs, script[scriptIndex].atMs) }
        if let deadline = tracker.releaseDeadline { next = min(next ?? deadline, deadline) }
        if configuration.virtualClock {
            if let next {
                virtualNow = max(virtualNow, next)
                return nil
            }
            // Nothing due: in virtual time only new input can move us on.
            if held && current == nil && waiting == nil && !inputEnded { return nil }  // advance() blocks for it
            if !held && scriptIndex >= script.count {
                return configuration.hold == .always || !everHeld ? .eof : .released
            }
            return nil
        }
        var timeout = next.map { max(0, $0 - time) } ?? 250
        if held && current == nil && waiting == nil && !inputEnded { timeout = min(timeout, 10) }  // stalled: look again soon
        if parser.hasPending { timeout = min(timeout, 30) }
        if terminal?.canRead == true {
            if let bytes = terminal?.read(timeoutMs: timeout), !bytes.isEmpty { pendingInput.append(contentsOf: bytes) }
        } else if timeout > 0 {
            usleep(UInt32(min(timeout, 250)) * 1000)
        }
        return nil
    }

    private var pendingInput: [UInt8] = []
    /// Since when the parser holds an unfinished escape sequence.
    private var escapeSince: Int?
    /// How long an unfinished escape sequence waits for the rest of its bytes
    /// before its ESC counts as the Esc key: a mouse report split across reads
    /// (over ssh, through tmux) must not end the round.
    static let escapeWaitMs = 50

    /// Keys, mouse and focus since the last look; nil unless they end the round.
    private func readInput(at time: Int) -> EndReason? {
        guard terminal?.canRead == true, !configuration.virtualClock else { return nil }
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
        for event in events {
            if case .key(let code, let kind) = event, kind != .release {
                switch code {
                case 113, 81, 27: return .quit  // q, Q, Esc
                case 3: return .interrupted  // Ctrl-C as a key (kitty protocol): as the signal would
                case 26: terminal?.suspendForeground()  // Ctrl-Z as a key: as the terminal would
                default: break
                }
            }
            if case .script = configuration.hold { continue }
            if configuration.hold == .always { continue }
            if tracker.handle(event, at: time) { if let reason = setHeld(tracker.isHeld, at: time) { return reason } }
        }
        if tracker.tick(at: time) { if let reason = setHeld(tracker.isHeld, at: time) { return reason } }
        return nil
    }

    private func applyScript(upTo time: Int) {
        while scriptIndex < script.count && script[scriptIndex].atMs <= time {
            let hold = script[scriptIndex]
            scriptIndex += 1
            if let reason = setHeld(hold.down, at: hold.atMs) {
                pendingEnd = (reason, hold.atMs)
                return
            }
        }
    }

    private var pendingEnd: (EndReason, Int)?

    /// The hold starts or ends at `time`.
    @discardableResult
    private func setHeld(_ down: Bool, at time: Int) -> EndReason? {
        guard down != held else { return nil }
        if down {
            _ = advance(to: time)
            held = true
            everHeld = true
            holdDownAt = time
            lastAt = time
            if promptShown {
                promptShown = false
                screen.clear()
            }
            if var playing = current, let left = playing.pausedLeft {
                // Resume where the pause left off.
                playing.frameStart = time - (playing.gif.delay(playing.index) - left)
                playing.pausedLeft = nil
                current = playing
                screen.clear()
                screen.draw(playing.gif, frame: playing.index)
            }
            return nil
        }
        if let early = advance(to: time, stopping: true) {
            pendingEnd = early
            return early.0
        }
        // Ending: finish() writes the GIF, the stall and this hold, in that order.
        if configuration.onRelease == .end { return .released }
        held = false
        endStall(at: time)
        emit(hold: holdDownAt, up: time)
        if var playing = current {
            playing.pausedLeft = max(0, playing.frameStart + playing.gif.delay(playing.index) - time)
            current = playing
        }
        showPaused()
        return nil
    }

    /// Plays from the last moment accounted for up to `time`: frames on their
    /// absolute schedule (falling behind skips frames rather than slowing),
    /// GIF after GIF, exposure counted while held. Returns an end and its moment.
    ///
    /// `stopping`: the hold ends (or the round does) at `time`, so nothing
    /// starts at that very moment: no frame, no GIF, no stall.
    private func advance(to time: Int, stopping: Bool = false) -> (EndReason, Int)? {
        if let pendingEnd { return pendingEnd }
        guard held else { return nil }
        var drawAtEnd = false
        while true {
            if current == nil {
                guard let (gif, at) = nextGIF(at: lastAt) else {
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
                    screen.draw(gif, frame: 0)
                    screen.flush()
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
                playing.frameStart = lastAt - playing.gif.delay(playing.index)
            }
            let due = playing.frameStart + playing.gif.delay(playing.index)
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
            let behind = playing.frameStart + playing.gif.delay(playing.index) <= time
            if configuration.virtualClock || !behind {
                if configuration.virtualClock {
                    screen.draw(playing.gif, frame: playing.index)
                    screen.flush()
                } else {
                    drawAtEnd = true
                }
                playing.framesShown += 1
            }
            current = playing
        }
        if drawAtEnd, let playing = current { screen.draw(playing.gif, frame: playing.index) }
        updateStatus()
        return nil
    }

    /// Whether the frame on screen is the GIF's last: its end completes the GIF.
    private func isLastFrame(_ playing: Playing) -> Bool {
        // On a real clock a frame still decoding counts as one more, unwaited for.
        let more = configuration.virtualClock ? playing.gif.hasFrame(playing.index + 1) : playing.gif.frameReady(playing.index + 1) != false
        return !more && playing.loopsDone + 1 >= configuration.loops
            && playing.playedMs >= configuration.minMs
    }

    /// The next GIF from the gif buffer, writing the lines that come before it;
    /// nil when none is ready (real clock) or the input ended.
    private func nextGIF(at time: Int) -> (PreparedGIF, Int)? {
        if let waiting { return (waiting.gif, waiting.at) }
        guard let (gif, at) = popGIF(until: nil) else {
            if preloader.buffer.isFinished { inputEnded = true }
            return nil
        }
        if gif.layout != preloader.layout, let refitted = preloader.refit(gif) {
            return (refitted, configuration.virtualClock ? at : 0)
        }
        return (gif, configuration.virtualClock ? at : 0)
    }

    /// The next GIF of the gif buffer, after writing the lines before it:
    /// on a virtual clock waiting for it (until `deadline`, when given), on
    /// a real one taking what is there. Nil when none came.
    private func popGIF(until deadline: Double?) -> (PreparedGIF, Int)? {
        while true {
            let items = !configuration.virtualClock ? preloader.buffer.tryPopBatch(max: 1)
                : deadline.map { preloader.buffer.popBatch(max: 1, until: $0) } ?? preloader.buffer.popBatch(max: 1)
            guard let item = items.first else { return nil }
            switch item {
            case .lines(let lines):
                for line in lines { stage.output.push(line) }
            case .gif(let gif, let at, let before):
                for line in before { stage.output.push(line) }
                return (gif, at)
            }
        }
    }

    private func begin(_ gif: PreparedGIF, at time: Int) {
        current = Playing(gif: gif, frameStart: time, startMs: time,
                          section: gif.record.string("section") ?? gif.record.string("query") ?? "")
        screen.clear()
    }

    private func complete(at time: Int) {
        guard let playing = current else { return }
        emit(shown: playing, end: time, completed: true)
        current = nil
    }

    private func endStall(at time: Int) {
        guard let start = stallStart else { return }
        stallStart = nil
        if time > start { emit(["kind": .text("stall"), "start_ms": .number(start), "end_ms": .number(time)]) }
    }

    private func finish(_ reason: EndReason, at time: Int) -> EndReason {
        var reason = reason
        var time = time
        if held && pendingEnd == nil && (reason == .quit || reason == .interrupted) {
            // Count the exposure up to this moment; a time limit may have come first.
            if let early = advance(to: time, stopping: true), early.0 == .timeLimit {
                reason = .timeLimit
                time = early.1
            }
        }
        let end = max(time, lastAt)
        if let playing = current { emit(shown: playing, end: end, completed: false) }
        current = nil
        writeLinesBeforeTheNextGIF()
        endStall(at: end)
        if held { emit(hold: holdDownAt, up: end) }
        held = false
        emit(["kind": .text("session"), "event": .text("end"), "t_ms": .number(end), "reason": .text(reason.rawValue)])
        screen.flush()
        return reason
    }

    /// At the end of the round: the records between the GIF reached last and
    /// the next one (errors about the images after it, say) still reach
    /// stdout, so `score` counts them. Beyond the next GIF nothing is written:
    /// those records, like the GIFs, were not reached, and how far the reading
    /// ahead got depends on timing, where the same input must give the same
    /// events (on a virtual clock this waits for the next item, up to 5 s
    /// for an input that stays open; on a real one it takes what is there).
    private func writeLinesBeforeTheNextGIF() {
        guard waiting == nil else { return }  // the next GIF is out already, its lines written
        popGIF(until: monotonicSeconds() + 5)?.0.frames.cancel()
    }

    /// The process is about to stop (Ctrl-Z) at `time`: a hold by mouse or
    /// keys ends then. Returns an end when that ends the round.
    private func suspended(at time: Int) -> EndReason? {
        guard !configuration.virtualClock, configuration.hold != .always else { return nil }
        if case .script = configuration.hold { return nil }
        let at = max(time, lastAt)
        guard tracker.handle(.focus(false), at: at) else { return nil }
        if let reason = setHeld(tracker.isHeld, at: at) {
            pendingEnd = pendingEnd ?? (reason, at)
            return reason
        }
        return nil
    }

    // MARK: Screen

    private func showPaused() {
        screen.message("paused: hold to go on · q quits")
    }

    private func showPrompt() {
        promptShown = true
        screen.message("hold the mouse button or SPACE to begin · q quits")
    }

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
        if !refit, let playing = current {
            if held { screen.draw(playing.gif, frame: playing.index) }
        } else if var playing = current, let refitted = preloader.refit(playing.gif, through: playing.index) {
            playing.gif = refitted
            // The new fit has the frames through this one now, unless the file changed and lost it.
            if !refitted.hasFrame(playing.index) { playing.index = max(0, refitted.frames.decoded - 1) }
            current = playing
            if held { screen.draw(refitted, frame: playing.index) }
        }
        if promptShown {
            showPrompt()
        } else if !held && everHeld && configuration.onRelease == .pause {
            showPaused()
        }
        // The GIF held back for the next hold is fitted again too.
        if let next = waiting, next.gif.layout != preloader.layout, let refitted = preloader.refit(next.gif) {
            waiting = (refitted, next.at)
        }
        lastStatusText = ""
        updateStatus()
    }

    private var lastStatusText = ""

    private func updateStatus() {
        guard !promptShown else { return }
        // The GIFs seen: those played and the one on screen.
        let seen = gifsShown + (current == nil ? 0 : 1)
        var parts = ["⏱ \(exposedTotal / 1000)s", "\(seen) GIF\(seen == 1 ? "" : "s")"]
        if let section = current?.section, !section.isEmpty { parts.append(section) }
        if stallStart != nil { parts.append("loading…") }
        let text = parts.joined(separator: " · ")
        guard text != lastStatusText else { return }
        lastStatusText = text
        screen.status(text)
    }

    // MARK: Events

    private enum Value {
        case text(String), number(Int), flag(Bool)
    }

    private func emit(_ fields: KeyValuePairs<String, Value>) {
        let record = JSONRecord()
        for (key, value) in fields {
            switch value {
            case .text(let text): record.set(key, text)
            case .number(let number): record.set(key, number)
            case .flag(let flag): record.set(key, flag)
            }
        }
        stage.output.push(record.serialized())
    }

    private func sessionStart() {
        let record = JSONRecord()
        record.set("kind", "session")
        record.set("event", "start")
        if let at = configuration.startAt ?? (configuration.virtualClock ? nil : Self.isoNow()) { record.set("at", at) }
        record.set("clock", configuration.virtualClock ? "virtual" : "real")
        record.set("hold", configuration.hold.name)
        record.set("renderer", screen.rendererName)
        record.set("cols", screen.columns)
        record.set("rows", screen.rows)
        record.set("on_release", configuration.onRelease.rawValue)
        stage.output.push(record.serialized())
    }

    private func emit(hold down: Int, up: Int) {
        emit(["kind": .text("hold"), "down_ms": .number(down), "up_ms": .number(up)])
    }

    private func emit(shown playing: Playing, end: Int, completed: Bool) {
        gifsShown += 1
        let record = JSONRecord()
        record.set("kind", "shown")
        record.set("id", playing.gif.id)
        record.set("section", playing.section)
        if let query = playing.gif.record.string("query") { record.set("query", query) }
        record.set("start_ms", playing.startMs)
        record.set("end_ms", end)
        record.set("exposed_ms", playing.exposedMs)
        record.set("frames", playing.framesShown)
        record.set("completed", completed)
        stage.output.push(record.serialized())
        updateStatus()
    }

    static func isoNow() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
