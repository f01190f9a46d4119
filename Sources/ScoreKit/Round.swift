import HistoryKit
import LadderKit

/// One round of the game, as `gif-play`'s events tell it: a session start to its end.
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
    /// The sum of every `shown` record's `exposed_ms`.
    public var exposedMs = 0
    /// The longest hold, `up_ms - down_ms`.
    public var longestHoldMs = 0
    /// The number of holds.
    public var holds = 0
    /// GIFs put on screen.
    public var gifsShown = 0
    /// GIFs played to their end.
    public var gifsCompleted = 0
    /// Times the person held with nothing ready to show.
    public var stalls = 0
    /// The time those stalls lasted.
    public var stallMs = 0
    /// Error records by `code`.
    public var errorCodes: [String: Int] = [:]
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

    /// A round with nothing in it yet.
    public init() {}

    /// True when the stream ended without a `session` end (the player was killed).
    public var incomplete: Bool { !ended }

    /// All error records.
    public var errors: Int { errorCodes.values.reduce(0, +) }

    /// The error codes and their counts, by code.
    public var errorsByCode: [(code: String, count: Int)] {
        errorCodes.sorted { $0.key < $1.key }.map { (code: $0.key, count: $0.value) }
    }

    /// The round's points (see ``Points``): a ladder round's reward courage.
    public var points: Int {
        if let ladder { return Points.ladderPoints(exposedMs: exposedMs, rungSuds: ladder.rungSuds, holds: holds) }
        return Points.points(exposedMs: exposedMs, gifsCompleted: gifsCompleted)
    }
}
