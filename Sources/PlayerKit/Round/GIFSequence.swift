import RecordKit
/// The GIF side of a round: the GIFs taken from the feed in input order, the
/// one on screen with where it is in its frames and loops, and the one held
/// back for later. Frames keep an absolute schedule: each is due at the end
/// of the one before, however late it is looked at.
///
/// A value that ``RoundMachine`` holds and steps. It knows frames, loops and
/// the schedule, nothing of holds, exposure or output. It calls no closure of
/// the machine's while it changes (the feed's lines are handed over by
/// ``next(lines:)``, which changes nothing), so what the machine hands out
/// may read the round's state back at any time.
struct GIFSequence<Feed: RoundFeed> {
    /// The GIFs played.
    typealias GIF = Feed.GIF

    /// The GIF on screen (or the one a pause left) and where it is.
    private struct Playing {
        var gif: GIF
        var index = 0
        var frameStart: Int
        var loopsDone = 0
        var startMs: Int
        var exposedMs = 0
        var framesShown = 1
        var playedMs = 0
        /// Paused: what was left of the frame's time when the hold ended.
        var pausedLeft: Int?
        var section: String
        /// Frame `index` is over but the next is still decoding (real clock):
        /// it stays on screen, and the wait is a stall.
        var awaitingFrame = false
    }

    /// What moving past a frame led to.
    enum Step {
        /// The GIF played its loops (and its minimum time): it is over.
        case over
        /// The next frame (or the first again, looping) is on time: draw it.
        case draw(GIF, frame: Int)
        /// The next frame is due already (a real clock fell behind), or the
        /// GIF is a still: nothing to draw.
        case skip
    }

    private let feed: Feed
    private let loops: Int
    private let minMs: Int
    /// How long a still shows (``RoundGIF/isStill``), in ms.
    private let stillMs: Int
    private let virtualClock: Bool

    private var current: Playing?
    /// A GIF taken from the feed that has not begun: it arrives later
    /// (virtual clock), or the hold ended before it could begin.
    private(set) var waiting: (gif: GIF, at: Int)?
    /// Whether the feed said it has finished when it had no GIF to give.
    private(set) var inputEnded = false
    /// GIFs that have left the screen (their `shown` written); the one on
    /// screen is not among them.
    private var gifsShown = 0

    /// GIFs from `feed`, played as `configuration` says (loops, minimum
    /// time, clock).
    init(feed: Feed, configuration: PlayerConfiguration) {
        self.feed = feed
        loops = configuration.loops
        minMs = configuration.minMs
        stillMs = configuration.stillMs
        virtualClock = configuration.virtualClock
    }

    // MARK: What is on screen

    /// GIFs shown so far: those that left the screen and the one on it.
    var gifsSeen: Int { gifsShown + (current == nil ? 0 : 1) }

    /// Whether a GIF is on screen (or left there by a pause).
    var isPlaying: Bool { current != nil }

    /// The GIF on screen (or the one a pause left).
    var gif: GIF? { current?.gif }

    /// The section of the GIF on screen; empty when none is.
    var section: String { current?.section ?? "" }
    /// The credit of the GIF on screen; nil when none is.
    var credit: Credit? { current?.gif.credit }

    /// The GIF on screen and the frame to draw of it: its first while a still.
    var onScreen: (gif: GIF, frame: Int)? {
        guard let current else { return nil }
        return (current.gif, current.gif.isStill ? 0 : current.index)
    }

    /// The GIF on screen and the index of its frame, still or not: what a refit starts from.
    var position: (gif: GIF, index: Int)? { current.map { ($0.gif, $0.index) } }

    /// Nothing on screen or held back, and the input goes on: the round waits for the feed.
    var waitsForFeed: Bool { current == nil && waiting == nil && !inputEnded }

    /// Nothing on screen or held back, and the input ended: nothing more to play.
    var isExhausted: Bool { inputEnded && current == nil && waiting == nil }

    /// The next moment a frame ends (or, a frame decoding, another look is
    /// due), or the GIF held back arrives, looking from `time` while held.
    func nextDue(after time: Int) -> Int? {
        guard let current else { return waiting?.at }
        guard current.pausedLeft == nil else { return nil }
        // Waiting for a frame to decode: look again soon.
        return current.awaitingFrame ? time + 10 : current.frameStart + delay(current.gif, current.index)
    }

    // MARK: Taking GIFs

    /// The GIF held back, else the next from the feed, after handing the
    /// lines before it to `lines`; nil when none is ready now. When none is,
    /// ``noteNoneReady()`` records whether the input ended.
    func next(lines: ([[UInt8]]) -> Void) -> (gif: GIF, at: Int)? {
        if let waiting { return waiting }
        guard let next = feed.nextGIF(lines: lines) else { return nil }
        return (next.gif, next.availableAt)
    }

    /// ``next(lines:)`` had none: the input has ended if the feed has finished.
    mutating func noteNoneReady() {
        if feed.isFinished { inputEnded = true }
    }

    /// Keeps `gif`, available from `at`, for later: it arrives later, or the
    /// hold ends before it can begin.
    mutating func holdBack(_ gif: GIF, at: Int) {
        waiting = (gif, at)
    }

    /// `gif` comes on screen at `time`, on its first frame.
    mutating func begin(_ gif: GIF, at time: Int) {
        waiting = nil
        current = Playing(gif: gif, frameStart: time, startMs: time, section: gif.section)
    }

    /// At the end of the round: the records between the GIF reached last and
    /// the next one (errors about the images after it, say) go to `lines`, so
    /// `score` counts them. Beyond the next GIF nothing is handed over: those
    /// records, like the GIFs, were not reached, and how far the reading
    /// ahead got depends on timing, where the same input must give the same
    /// events.
    func linesBeforeTheNextGIF(lines: ([[UInt8]]) -> Void) {
        guard waiting == nil else { return }  // the next GIF is out already, its lines written
        feed.linesBeforeNextGIF(lines: lines)
    }

    // MARK: Frames

    /// When the frame on screen ends, on its schedule.
    var frameEnd: Int? { current.map { $0.frameStart + delay($0.gif, $0.index) } }

    /// The frame on screen is over but the next is still decoding (real clock).
    var awaitsFrame: Bool { current?.awaitingFrame == true }

    /// Whether the next frame is known: decoded, or the frames ended.
    var nextFrameKnown: Bool {
        guard let current else { return false }
        return current.gif.frameReady(current.index + 1) != nil
    }

    /// The frame awaited is known at `time`: the frame on screen ends then.
    mutating func frameKnown(at time: Int) {
        guard var playing = current else { return }
        playing.awaitingFrame = false
        playing.frameStart = time - delay(playing.gif, playing.index)
        current = playing
    }

    /// On a real clock, with the next frame still decoding, the frame on
    /// screen stays and the round waits for it; returns whether it does.
    mutating func awaitNextFrame() -> Bool {
        guard !virtualClock, var playing = current, playing.gif.frameReady(playing.index + 1) == nil else { return false }
        playing.awaitingFrame = true
        current = playing
        return true
    }

    /// `ms` of the GIF on screen played while held.
    mutating func played(_ ms: Int) {
        current?.exposedMs += ms
        current?.playedMs += ms
    }

    /// Whether the frame on screen is the GIF's last: its end completes the
    /// GIF (a still's one showing always is).
    var isLastFrame: Bool {
        guard let playing = current else { return false }
        if playing.gif.isStill { return true }
        // On a real clock a frame still decoding counts as one more, unwaited for.
        let more = virtualClock ? playing.gif.hasFrame(playing.index + 1) : playing.gif.frameReady(playing.index + 1) != false
        return !more && (playing.gif.playsOnce || playing.loopsDone + 1 >= loops && playing.playedMs >= minMs)
    }

    /// The frame on screen ended at `due`: on to the next frame, the next
    /// loop, or the GIF's end. A frame whose own end is by `time` already is
    /// not drawn: falling behind skips frames rather than slowing.
    mutating func nextFrame(after due: Int, time: Int) -> Step {
        guard var playing = current else { return .skip }
        // A still shows once, for the still time: no loops, no minimum. The
        // frames after its first are never wanted: their decoding stops, or
        // the finisher would wait on them and the GIFs after it with them.
        if playing.gif.isStill {
            playing.gif.discard()
            return .over
        }
        playing.index += 1
        playing.frameStart = due
        if !playing.gif.hasFrame(playing.index) {
            playing.loopsDone += 1
            let moreLoops = !playing.gif.playsOnce && playing.loopsDone < loops
            let tooShort = !playing.gif.playsOnce && playing.playedMs < minMs
            guard moreLoops || tooShort else {
                current = playing
                return .over
            }
            playing.index = 0
        }
        let behind = playing.frameStart + delay(playing.gif, playing.index) <= time
        var step = Step.skip
        if virtualClock || !behind {
            step = .draw(playing.gif, frame: playing.index)
            playing.framesShown += 1
        }
        current = playing
        return step
    }

    /// How long frame `index` of `gif` shows: its delay, but a still's
    /// first frame (all it shows) the still time.
    private func delay(_ gif: GIF, _ index: Int) -> Int {
        gif.isStill ? stillMs : gif.delay(index)
    }

    // MARK: Pauses, refits, ends

    /// The hold ended at `time`: the GIF on screen keeps what was left of its frame.
    mutating func pause(at time: Int) {
        guard var playing = current else { return }
        playing.pausedLeft = max(0, playing.frameStart + delay(playing.gif, playing.index) - time)
        current = playing
    }

    /// A hold starts at `time`: a paused GIF goes on where the pause left
    /// it. Returns whether one did (and is to be drawn again).
    mutating func resume(at time: Int) -> Bool {
        guard var playing = current, let left = playing.pausedLeft else { return false }
        playing.frameStart = time - (delay(playing.gif, playing.index) - left)
        playing.pausedLeft = nil
        current = playing
        return true
    }

    /// The GIF on screen, fitted again, is `gif`, at frame `index`.
    mutating func refitted(_ gif: GIF, index: Int) {
        current?.gif = gif
        current?.index = index
    }

    /// Takes the GIF on screen off it at `end`, before it is counted, so it
    /// is counted once among the GIFs shown; returns its `shown`.
    mutating func takeOff(at end: Int, completed: Bool) -> RoundEvent.Shown? {
        guard let playing = current else { return nil }
        current = nil
        gifsShown += 1
        let ladder = playing.gif.ladder
        return RoundEvent.Shown(
            id: playing.gif.id, section: playing.section, query: playing.gif.query, startMs: playing.startMs,
            endMs: end, exposedMs: playing.exposedMs, frames: playing.framesShown, completed: completed,
            // Off a ladder, the provider only when it is not Giphy (absent means giphy): those events are as they were.
            ladder: ladder, provider: ladder != nil || playing.gif.provider != "giphy" ? playing.gif.provider : nil,
            hash: playing.gif.clipHash?.first.gradient.hex, hashDCT: playing.gif.clipHash?.first.cosine.hex,
            credit: playing.gif.credit?.picture)
    }
}
