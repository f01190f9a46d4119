import SposureKit

/// What a ladder round's records carry, from `plan` to `score`: the ladder,
/// the rung and its expected SUDS, and whether it is a re-test or a page mixed
/// in from a mastered rung.
///
///     "ladder":"spiders","rung":4,"rung_suds":35,"retest":true,"mix":true
///
/// `retest` and `mix` are written only when true; `still` with a rung of stills.
public struct LadderTag: Sendable, Equatable {
    /// The ladder's name.
    public var ladder: String
    /// The rung, from 1.
    public var rung: Int
    /// The rung's expected SUDS, 0–100.
    public var rungSuds: Int
    /// A re-test of a mastered rung.
    public var retest = false
    /// A page of a mastered rung mixed into the round (`--mix`).
    public var mix = false
    /// Each GIF is shown frozen on its first frame.
    public var still = false
    /// Each still comes slowly closer (the rung's `approach`).
    public var approach = false

    /// The field names, spelled once.
    public enum Field {
        public static let ladder = "ladder", rung = "rung", rungSuds = "rung_suds", retest = "retest", mix = "mix", still = "still"
        public static let approach = "approach"
    }

    /// The fields, in the order they are written.
    public static let fields = [Field.ladder, Field.rung, Field.rungSuds, Field.retest, Field.mix, Field.still, Field.approach]

    /// A tag.
    public init(ladder: String, rung: Int, rungSuds: Int, retest: Bool = false, mix: Bool = false, still: Bool = false) {
        self.ladder = ladder
        self.rung = rung
        self.rungSuds = rungSuds
        self.retest = retest
        self.mix = mix
        self.still = still
    }

    /// The tag of `record`; nil without a string `ladder` and a whole `rung` ≥ 1.
    public init?(record: JSONRecord) {
        guard let ladder = record.string(Field.ladder), !ladder.isEmpty, let rung = record.int(Field.rung), rung >= 1 else { return nil }
        self.ladder = ladder
        self.rung = rung
        rungSuds = record.int(Field.rungSuds) ?? 0
        retest = record.bool(Field.retest) ?? false
        mix = record.bool(Field.mix) ?? false
        still = record.bool(Field.still) ?? false
        approach = record.bool(Field.approach) ?? false
    }

    /// Appends the fields to `record` (`retest`, `mix`, `still`, `approach` only when true).
    public func write(to record: JSONRecord) {
        record.set([(Field.ladder, ladder), (Field.rung, rung), (Field.rungSuds, rungSuds), (Field.retest, retest.omittedWhenFalse),
                    (Field.mix, mix.omittedWhenFalse), (Field.still, still.omittedWhenFalse), (Field.approach, approach.omittedWhenFalse)])
    }
}

extension LadderTag {
    /// The tag with ``approach`` set to `flag`.
    public func approaching(_ flag: Bool) -> LadderTag {
        var tag = self
        tag.approach = flag
        return tag
    }
}
