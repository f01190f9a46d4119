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

    /// The fields, in the order they are written.
    public static let fields = ["ladder", "rung", "rung_suds", "retest", "mix", "still", "approach"]

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
        guard let ladder = record.string("ladder"), !ladder.isEmpty, let rung = record.int("rung"), rung >= 1 else { return nil }
        self.ladder = ladder
        self.rung = rung
        rungSuds = record.int("rung_suds") ?? 0
        retest = record.bool("retest") ?? false
        mix = record.bool("mix") ?? false
        still = record.bool("still") ?? false
        approach = record.bool("approach") ?? false
    }

    /// Appends the fields to `record` (`retest`, `mix`, `still`, `approach` only when true).
    public func write(to record: JSONRecord) {
        record.set([("ladder", ladder), ("rung", rung), ("rung_suds", rungSuds), ("retest", retest.omittedWhenFalse),
                    ("mix", mix.omittedWhenFalse), ("still", still.omittedWhenFalse), ("approach", approach.omittedWhenFalse)])
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
