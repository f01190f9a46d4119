import SposureKit

extension RoundRatings {
    /// The field names of the answers' object (a `score` record's `ratings`),
    /// in the order ``write(to:)`` writes them.
    public enum Field {
        public static let sudsBefore = "suds_before", expectPct = "expect_pct", peak = "peak"
        public static let sudsAfter = "suds_after", happened = "happened"
    }

    /// The answers of `object` (a `score` record's `ratings`), as ``write(to:)``
    /// writes them; an answer absent or of another type is nil.
    public init(object: JSONRecord) {
        self.init(sudsBefore: object.int(Field.sudsBefore), expectPct: object.int(Field.expectPct), peak: object.int(Field.peak),
                  sudsAfter: object.int(Field.sudsAfter), happened: object.bool(Field.happened))
    }
}
