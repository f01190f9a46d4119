import GIFEngine

/// How `gif-play` plays a round.
public struct PlayerConfiguration: Sendable {
    /// What draws the frames.
    public enum Renderer: String, Sendable, CaseIterable {
        case auto, truecolor, palette = "256", sixel, kitty, iterm, none
    }

    /// What letting go does.
    public enum OnRelease: String, Sendable, CaseIterable {
        /// The round ends (the original game).
        case end
        /// The screen blanks until the next hold.
        case pause
    }

    /// What draws the frames (`auto`: picked from what the terminal says it can do).
    public var renderer = Renderer.auto
    /// The characters cells are drawn with (`--symbols`; nil: picked from
    /// the terminal, ``Symbols/automatic(terminal:environment:)``).
    public var symbols: Symbols?
    /// Virtual: no sleeping, time advances by the frame delays.
    public var virtualClock = false
    /// Where holds come from.
    public var hold = HoldSource.auto
    /// What letting go does.
    public var onRelease = OnRelease.end
    /// Times each GIF plays through.
    public var loops = 1
    /// A GIF shorter than this (ms) repeats until it has played this long.
    public var minMs = 0
    /// A still (a picture of one frame, or one whose record says `still:
    /// true`) shows its first frame this long, once, in ms (`--still-time`).
    public var stillMs = 5000
    /// The round ends after this much exposure (ms); nil: no limit.
    public var timeLimitMs: Int?
    /// GIFs kept decoded ahead.
    public var buffer = 2
    /// How key autorepeat is read as a hold.
    public var thresholds = RepeatThresholds()
    /// The colour transparent areas show.
    public var background = RGBColor.black
    /// The `at` of the session start (virtual clock: left out unless given).
    public var startAt: String?
    /// Decoding limits and delay rules.
    public var decode = DecodeOptions()
    /// Where a ladder round's ratings come from (`--ratings`).
    public var ratings = RatingSource.ask
    /// The safety notice counts as accepted for this run (`--accept-notice`).
    public var acceptNotice = false
    /// The data folder (the notice's acceptance, `seen.ndjson`); nil: ``Folders/data(environment:)``.
    public var dataFolder: String?
    /// GIFs shown in this many recent rounds of the rung (or query) play
    /// after new ones (`--seen-rounds`); 0: input order. Nil: 5 on a real
    /// clock, 0 on a virtual one, whose replays must not depend on the data folder.
    public var seenRounds: Int?
    /// When a still comes closer while shown (`--approach`).
    public var approach = ApproachMode.auto

    /// The recent rounds whose GIFs play after new ones (see ``seenRounds``).
    public var effectiveSeenRounds: Int { seenRounds ?? (virtualClock ? 0 : 5) }

    /// The defaults.
    public init() {}
}
