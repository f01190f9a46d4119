import SposureKit

/// An event of the round, as a value: what `gif-play` writes on stdout
/// (see ``record``) and `score` reads.
public enum RoundEvent: Sendable, Equatable {
    /// The round began.
    case sessionStart(SessionStart)
    /// Held, but nothing ready to show from `startMs` to `endMs`.
    case stall(startMs: Int, endMs: Int)
    /// A hold from `downMs` to `upMs`.
    case hold(downMs: Int, upMs: Int)
    /// A GIF was on screen.
    case shown(Shown)
    /// The round ended at `atMs` (nil: the record said no time), for
    /// `reason` (nil: it said none).
    case sessionEnd(atMs: Int?, reason: EndReason?)
    /// The GIF on screen was rated with a digit during play.
    case rated(Rated)
    /// The answers to the questions before or after a ladder round.
    case rating(Rating)
    /// A GIF taken from the stream was not shown (the same clip as one
    /// already shown this round, under another id).
    case skipped(Skipped)
    /// The GIF on screen was marked off-topic with the `x` key (it ended there).
    case offTopic(OffTopicMark)

    /// What a `shown` event says of one GIF.
    public struct Shown: Sendable, Equatable {
        /// The GIF's id.
        public var id: String
        /// Its section (else its query, else empty).
        public var section: String
        /// Its query, when the record had one.
        public var query: String?
        /// When it started, in ms of the session.
        public var startMs: Int
        /// When it ended (played out, let go, or the round ended).
        public var endMs: Int
        /// How long it was on screen while held.
        public var exposedMs: Int
        /// Frames drawn (a frame skipped while behind is not counted).
        public var frames: Int
        /// Whether it played to its end.
        public var completed: Bool
        /// The ladder tag of its record (nil off a ladder), written after `completed`.
        public var ladder: LadderTag?
        /// Its record's provider, written after `completed`, before the ladder tag.
        public var provider: String?
        /// Its perceptual hash (the difference hash of its first frame with
        /// detail: 16 hex digits), written last; nil for a GIF too small or too flat to hash.
        public var hash: String?
        /// The cosine hash of the same frame (16 hex digits), written after
        /// `hash`; nil where `hash` is, and in streams older than issue 28.
        public var hashDCT: String?
        /// Whose picture it was and under which licence, written last; nil
        /// when its record had no `author`, `license` or `page_url` (Giphy, Klipy).
        public var credit: PictureCredit?

        /// A `shown` event.
        public init(id: String, section: String, query: String?, startMs: Int, endMs: Int, exposedMs: Int,
                    frames: Int, completed: Bool, ladder: LadderTag? = nil, provider: String? = nil, hash: String? = nil,
                    hashDCT: String? = nil, credit: PictureCredit? = nil) {
            self.id = id
            self.section = section
            self.query = query
            self.startMs = startMs
            self.endMs = endMs
            self.exposedMs = exposedMs
            self.frames = frames
            self.completed = completed
            self.ladder = ladder
            self.provider = provider
            self.hash = hash
            self.hashDCT = hashDCT
            self.credit = credit
        }
    }

    /// What a `skipped` event says: a GIF passed over before it was shown.
    public struct Skipped: Sendable, Equatable {
        /// Why: ``sameClip`` or ``offTopic``.
        public var reason: String
        /// The GIF's id, and its record's provider when it names one.
        public var id: String
        public var provider: String?
        /// The id of the GIF it is the same clip as: shown this round
        /// (``sameClip``), or marked off-topic (``offTopic``).
        public var like: String?
        /// When, in ms of the session: the moment it would have come on screen.
        public var atMs: Int
        /// Its perceptual hash (the difference hash of its first frame with detail: 16 hex digits).
        public var hash: String?
        /// The cosine hash of the same frame (16 hex digits).
        public var hashDCT: String?

        /// The same clip as one already shown in the round.
        public static let sameClip = "same_clip"
        /// The same clip as one marked off-topic (under another id: a re-upload).
        public static let offTopic = "off_topic"

        /// A `skipped` event.
        public init(reason: String, id: String, provider: String? = nil, like: String? = nil, atMs: Int, hash: String? = nil,
                    hashDCT: String? = nil) {
            self.reason = reason
            self.id = id
            self.provider = provider
            self.like = like
            self.atMs = atMs
            self.hash = hash
            self.hashDCT = hashDCT
        }
    }

    /// What a `rated` event says: the GIF on screen and the digit pressed
    /// (the same record as a line of the ratings file).
    public typealias Rated = GIFRating

    /// What a `session` start says: when, on which clock, held how, drawn how.
    public struct SessionStart: Sendable, Equatable {
        /// The wall time (ISO 8601), when the player gave one.
        public var at: String?
        /// `real` or `virtual`.
        public var clock: String?
        /// What the hold is read from (`mouse`, `keys`, `script`, …).
        public var hold: String?
        /// The renderer chosen.
        public var renderer: String?
        /// The characters a block renderer draws with (`half`, `quad`,
        /// `sextant`, `octant`); nil for pixels or none.
        public var symbols: String?
        /// The screen, in cells.
        public var cols: Int?
        public var rows: Int?
        /// `end` or `pause`.
        public var onRelease: String?
        /// The round's ladder tag, when the stream's start carries one.
        public var ladder: LadderTag?

        /// A session start.
        public init(at: String?, clock: String?, hold: String? = nil, renderer: String? = nil, symbols: String? = nil,
                    cols: Int? = nil, rows: Int? = nil, onRelease: String? = nil, ladder: LadderTag? = nil) {
            self.at = at
            self.clock = clock
            self.hold = hold
            self.renderer = renderer
            self.symbols = symbols
            self.cols = cols
            self.rows = rows
            self.onRelease = onRelease
            self.ladder = ladder
        }
    }
}
