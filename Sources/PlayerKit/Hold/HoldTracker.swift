/// Knows whether the person is holding, from input events and time.
///
/// Mouse and kitty key events say exactly when a hold starts and ends. A
/// terminal that sends only presses repeats a held key: the first press starts
/// the hold, and the hold ends when the repeats stop (see ``RepeatThresholds``).
/// Losing focus counts as a release: a hold that cannot be seen ends.
public struct HoldTracker: Sendable {
    /// Whether a hold is on now.
    public private(set) var isHeld = false
    private let source: HoldSource
    private let thresholds: RepeatThresholds
    /// Key holds known exactly (kitty protocol): no inference.
    public var exactKeys = false
    private var lastKeyMs: Int?
    private var firstPressMs: Int?
    private var repeatInterval: Int?
    private var mouseDown = false
    private var keyDown = false

    /// A tracker for `source`.
    public init(source: HoldSource, thresholds: RepeatThresholds = RepeatThresholds()) {
        self.source = source
        self.thresholds = thresholds
    }

    private var mouseCounts: Bool { source == .mouse || source == .auto }
    private var keysCount: Bool { source == .keys || source == .auto }

    /// Repeats closer than this were read together, not typed apart: no
    /// keyboard repeats faster than 50 a second.
    static let burstMs = 15

    /// Takes one event at `nowMs`; returns true when the hold state changed.
    public mutating func handle(_ event: InputEvent, at nowMs: Int) -> Bool {
        let before = isHeld
        switch event {
        case .mouse(let button, _, _, let pressed) where mouseCounts && button == 0:
            mouseDown = pressed
        case .key(32, let kind) where keysCount:
            switch kind {
            case .press:
                if exactKeys {
                    keyDown = true
                } else if keyDown, let last = lastKeyMs {
                    // A repeat: learn its interval, from gaps long enough to be
                    // one (repeats read together, while the player was busy,
                    // come a few ms apart and would make the release hair-trigger).
                    let gap = nowMs - last
                    if gap >= Self.burstMs { repeatInterval = repeatInterval.map { min($0, gap) } ?? gap }
                    lastKeyMs = nowMs
                } else {
                    keyDown = true
                    firstPressMs = nowMs
                    lastKeyMs = nowMs
                    repeatInterval = nil
                }
            case .repeat:
                keyDown = true
            case .release:
                keyDown = false
            }
        case .focus(false):
            mouseDown = false
            keyDown = false
        default:
            break
        }
        isHeld = mouseDown || keyDown
        return isHeld != before
    }

    /// Another key (a digit rating the GIF) pressed at `nowMs` while SPACE may
    /// be held: not a release. Most terminals stop SPACE's autorepeat when
    /// another key goes down, so an inferred key hold waits as long as for
    /// the first repeat (``RepeatThresholds/firstRepeatMs``) before it ends,
    /// and goes on when SPACE repeats again. Exact holds (mouse, kitty
    /// protocol) are not touched.
    public mutating func otherKey(at nowMs: Int) {
        guard keyDown && !exactKeys else { return }
        lastKeyMs = nowMs
        repeatInterval = nil
    }

    /// The time by which, with no further repeat, an inferred key hold ends; nil when none is pending.
    public var releaseDeadline: Int? {
        guard keyDown && !exactKeys, let last = lastKeyMs else { return nil }
        guard let interval = repeatInterval else { return last + thresholds.firstRepeatMs }
        return last + max(Int(Double(interval) * thresholds.gapFactor), thresholds.minimumGapMs)
    }

    /// Lets time pass: ends an inferred key hold whose repeats stopped. Returns true when the state changed.
    public mutating func tick(at nowMs: Int) -> Bool {
        guard let deadline = releaseDeadline, nowMs >= deadline else { return false }
        keyDown = false
        let before = isHeld
        isHeld = mouseDown || keyDown
        return before != isHeld
    }

    /// Forces the state (for `always` and scripted holds).
    public mutating func set(held: Bool) {
        mouseDown = held
        keyDown = false
        isHeld = held
    }
}
