/// The rules that move a person along a ladder, with their defaults.
///
/// Every number can be overridden in the ladder file's `rules` object
/// (docs/ladders.md says where each default comes from; most are project
/// choices within what exposure practice describes, not clinical constants).
public struct LadderRules: Sendable, Equatable {
    /// A round counts on its rung when its exposure is at least this (ms): `count_seconds`.
    public var countMs = 60_000
    /// Counted rounds that must have ended calm to step up: `step_up_rounds`.
    public var stepUpRounds = 2
    /// Distress after (0–10) at or under which a round ended calm: `step_up_suds`.
    public var stepUpSuds = 3
    /// Or: distress after fell to at most this percent of the round's peak: `step_up_drop_pct` (50: by half).
    public var stepUpDropPercent = 50
    /// Rounds in a row that must have been let go early and at a high peak to step down: `step_down_rounds`.
    public var stepDownRounds = 2
    /// A round let go with less exposure than this (ms) was let go early: `step_down_release_seconds`.
    public var earlyReleaseMs = 10_000
    /// Peak distress (0–10) at or over which an early release steps down: `step_down_peak`.
    public var stepDownPeak = 8
    /// Days after mastering a rung when it is due a re-test: `retest_days`.
    public var retestDays = [7, 28]
    /// Distress after a re-test (0–10) at or over which fear came back: `return_of_fear_suds`.
    public var returnOfFearSuds = 5
    /// With `--mix`, one page in this many is from an already-mastered rung: `mix_every`.
    public var mixEvery = 4
    /// `list` puts GIFs shown in the last this many rounds on the rung after the others (0: off): `fresh_rounds`.
    public var freshRounds = LadderRules.defaultFreshRounds
    /// `fresh_rounds`' default, `giphy-pages list --fresh-rounds`' too.
    public static let defaultFreshRounds = 5

    /// The defaults.
    public init() {}

    /// The file's names of the rules, in the order docs/ladders.md lists them.
    public static let keys = ["count_seconds", "step_up_rounds", "step_up_suds", "step_up_drop_pct", "step_down_rounds",
                              "step_down_release_seconds", "step_down_peak", "retest_days", "return_of_fear_suds", "mix_every", "fresh_rounds"]
}
