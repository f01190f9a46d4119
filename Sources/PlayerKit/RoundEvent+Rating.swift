extension RoundEvent {
    /// The answers given before or after a ladder round; a skipped answer is nil
    /// (and absent from the record).
    public struct Rating: Sendable, Equatable {
        /// Before the first hold, or after the round.
        public enum When: String, Sendable {
            case before, after
        }

        /// Before or after.
        public var when: When
        /// Distress now, 0–10.
        public var suds: Int?
        /// Before: how likely the feared outcome seems, 0–100 %.
        public var expectPct: Int?
        /// After: the peak distress during the round, 0–10.
        public var peak: Int?
        /// After: whether the feared outcome happened.
        public var happened: Bool?

        /// Answers given one by one.
        public init(when: When, suds: Int? = nil, expectPct: Int? = nil, peak: Int? = nil, happened: Bool? = nil) {
            self.when = when
            self.suds = suds
            self.expectPct = expectPct
            self.peak = peak
            self.happened = happened
        }
    }
}
