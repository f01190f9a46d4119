import RecordKit
import HistoryKit
import LadderKit

/// One round of the game, as `gif-play`'s events tell it: a session start to its end.
/// Its totals (``RoundTotals``) read as its own fields: `round.exposedMs`.
@dynamicMemberLookup
public struct Round: Sendable, Equatable {
    /// The session start's `at` (UTC, ISO 8601), when it had one.
    public var at: String?
    /// The player's clock: `real` or `virtual`, when the start said.
    public var clock: String?
    /// Whether a `session` start opened the round.
    public var started = false
    /// Whether a `session` end closed it; a round without one is incomplete.
    public var ended = false
    /// The end's `reason` (`released`, `quit`, `eof`, `time-limit`, `interrupted`).
    public var endReason: String?
    /// The end's `t_ms`, else the latest time any event mentions.
    public var durationMs = 0
    /// What its events add up to.
    public var totals = RoundTotals()
    /// Error records by `code`.
    public var errorCodes: [String: Int] = [:]
    /// The error records of GIFs (made by `fetch-images` or `gif-play`) by `code`: a subset of ``errorCodes``.
    public var gifErrorCodes: [String: Int] = [:]
    /// Exposure by section, in the order sections first appeared.
    public var sections: [SectionExposure] = []
    /// Input lines that were not JSON objects.
    public var badLines = 0
    /// The ladder and rung the round was played on (from its `shown` records); nil off a ladder.
    public var ladder: LadderTag?
    /// The player's `rating` answers.
    public var ratings = RoundRatings()
    /// GIFs rated with a digit key (`rated` events), in order.
    public var gifRatings: [GIFRating] = []
    /// GIFs marked off-topic with the x key (`off_topic` events), in order.
    public var offTopic: [OffTopicMark] = []
    /// GIFs passed over, the same clip as one shown (`skipped` events).
    public var gifsSkipped = 0
    /// The GIFs shown (`shown` events with an id), in order, as `seen.ndjson` keeps them.
    public var seen: [SeenRound.GIF] = []
    /// The distinct credits of the pictures shown that had one (Commons'), at most ``PictureCredit/maxPerRound``.
    public var credits: [PictureCredit] = []
    /// The query of the first GIF shown that had one.
    public var query: String?
    /// The provider of the first GIF shown (`giphy` when its record named none).
    public var provider: String?
    /// The latest `up_ms` of a `hold`: the end of the last hold.
    public var lastUpMs: Int?
    /// Whether the button was still held when the round ended (the player
    /// writes the last hold's `hold` with `up_ms` at the end's `t_ms`).
    public var heldAtEnd = false

    /// A round with nothing in it yet.
    public init() {}

    /// A total, as the round's own field.
    public subscript<T>(dynamicMember key: WritableKeyPath<RoundTotals, T>) -> T {
        get { totals[keyPath: key] }
        set { totals[keyPath: key] = newValue }
    }

    /// True when the stream ended without a `session` end (the player was killed).
    public var incomplete: Bool { !ended }

    /// True when the round never reached a hold: no hold and no exposure (the
    /// safety notice declined, q at a question before the round, the headless
    /// refusal, nothing to play). It is scored but is not a round of the
    /// history (issue "Hostile input, third pass", item 7).
    public var neverHeld: Bool { totals.holds == 0 && totals.exposedMs == 0 }

    /// True when the GIFs ran out while the person still held (the end's
    /// reason `eof`, held to the end): not a letting go (issue 29 #8).
    public var ranOut: Bool { ended && endReason == EndReason.eof.rawValue && heldAtEnd && totals.holds > 0 }

    /// All error records.
    public var errors: Int { errorCodes.values.reduce(0, +) }

    /// The error codes and their counts, by code.
    public var errorsByCode: [(code: String, count: Int)] {
        errorCodes.sorted { $0.key < $1.key }.map { (code: $0.key, count: $0.value) }
    }

    /// The round's points (see ``Points``): a ladder round's reward courage.
    public var points: Int {
        if let ladder { return Points.ladderPoints(exposedMs: totals.exposedMs, rungSuds: ladder.rungSuds, holds: totals.holds) }
        return Points.points(exposedMs: totals.exposedMs, gifsCompleted: totals.gifsCompleted)
    }
}
