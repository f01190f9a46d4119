/// The `score` record's kind and field names: a round's report, written by
/// `score` (docs/score.md has every field).
///
/// Its reader and writer are ScoreKit's `ScoredRound`: the record is made of
/// a round's numbers (HistoryKit's `RoundTotals`, whose names it writes first)
/// and a ladder's outcome (LadderKit), types RecordKit does not see.
public enum ScoreRecord {
    /// The record's `kind`.
    public static let kind = "score"

    /// The field names, spelled once, in the order they are written after the
    /// totals' (`RoundTotals.Field`, also a section's).
    public enum Field {
        public static let kind = "kind"
        public static let errors = "errors", errorCodes = "error_codes", sections = "sections", points = "points"
        public static let personalBest = "personal_best", previousBestMs = "previous_best_ms", incomplete = "incomplete"
        public static let reason = "reason", durationMs = "duration_ms", at = "at", clock = "clock", badLines = "bad_lines"
        public static let distressBefore = "distress_before", distressAfter = "distress_after"
        public static let ladder = "ladder", ratings = "ratings", gifsRated = "gifs_rated"
        public static let gifsSkipped = "gifs_skipped", gifsOffTopic = "gifs_off_topic", newGIFs = "new_gifs"
        /// Whose pictures were seen (Wikimedia Commons' credits), when any.
        public static let credits = "credits"
    }

    /// The field names of a ladder round's `ladder` object, in the order they are written.
    public enum LadderField {
        public static let name = "name", rung = "rung", rungSuds = "rung_suds", retest = "retest"
        public static let step = "step", nowOn = "now_on", nextRung = "next_rung", nextRetest = "next_retest", why = "why"
    }
}
