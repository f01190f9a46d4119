import SposureKit

/// The fields of a ladder round's image record that its `shown` event
/// carries on to `score`: `provider`, `ladder`, `rung`, `rung_suds`,
/// `retest`, `mix`, each when present, in that order (issue 15).
public struct LadderFields: Sendable, Equatable {
    /// The GIF's provider (`giphy`, `klipy`, `local`).
    public var provider: String?
    /// The ladder's name.
    public var ladder: String
    /// The rung, from 1.
    public var rung: Int?
    /// The rung's expected SUDS, 0–100.
    public var rungSuds: Int?
    /// A re-test round.
    public var retest: Bool?
    /// A page of a mastered rung mixed in.
    public var mix: Bool?

    /// Fields given one by one.
    public init(provider: String? = nil, ladder: String, rung: Int? = nil, rungSuds: Int? = nil,
                retest: Bool? = nil, mix: Bool? = nil) {
        self.provider = provider
        self.ladder = ladder
        self.rung = rung
        self.rungSuds = rungSuds
        self.retest = retest
        self.mix = mix
    }

    /// The fields of `record`; nil when it has no string `ladder` (not a
    /// ladder round: its `shown` stays as it always was).
    public init?(record: JSONRecord) {
        guard let ladder = record.string("ladder") else { return nil }
        self.init(provider: record.string("provider"), ladder: ladder, rung: record.int("rung"),
                  rungSuds: record.int("rung_suds"), retest: record.bool("retest"), mix: record.bool("mix"))
    }

    /// Appends the fields present to `record`.
    public func write(to record: JSONRecord) {
        if let provider { record.set("provider", provider) }
        record.set("ladder", ladder)
        if let rung { record.set("rung", rung) }
        if let rungSuds { record.set("rung_suds", rungSuds) }
        if let retest { record.set("retest", retest) }
        if let mix { record.set("mix", mix) }
    }
}
