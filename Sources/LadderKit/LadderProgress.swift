import FoundationEssentials
import Glibc

/// Where a person stands on a ladder: the rules replayed over the rounds played on it.
///
/// The rules (docs/ladders.md; each number in ``LadderRules``):
/// - a round counts on its rung when its exposure is at least `count_seconds`;
/// - step up after the last `step_up_rounds` counted rounds on the rung all
///   ended calm (distress after ≤ `step_up_suds`, or fallen to half the peak);
///   the rung is then mastered;
/// - step down after `step_down_rounds` rounds in a row on the rung were let
///   go within `step_down_release_seconds` at a peak ≥ `step_down_peak`;
/// - never more than one rung at a time; a round played on another rung
///   (`--rung`) is kept but does not move the ladder;
/// - a mastered rung is due a re-test `retest_days` after it was mastered; a
///   re-test whose distress after is ≥ `return_of_fear_suds` puts the ladder
///   back on that rung (and it must be mastered again).
public struct LadderProgress: Sendable, Equatable {
    /// The rung the rules put the ladder on, from 1.
    public var rung: Int
    /// Whether the top rung is mastered.
    public var complete = false
    /// Mastered rungs and when.
    public var masteredOn: [Int: Date] = [:]
    /// Re-tests taken of each mastered rung since it was mastered.
    public var retests: [Int: [Date]] = [:]
    /// What moved the ladder, in order.
    public var steps: [Step] = []
    /// Of the rounds on the current rung since the ladder came to it, what
    /// the rules look at: the last `step_down_rounds` of them, and the last
    /// `step_up_rounds` that counted (a long stay on one rung keeps no more).
    var recent: [LadderRound] = []
    var recentCounted: [LadderRound] = []

    /// A move of the ladder.
    public struct Step: Sendable, Equatable {
        /// Which rule moved it.
        public enum Kind: String, Sendable {
            /// Up a rung: its last counted rounds ended calm.
            case up
            /// Down a rung: rounds let go early at a high peak.
            case down
            /// Back to a mastered rung (any, the current one too): fear came back on its re-test.
            case back
        }

        /// Which rule moved it.
        public var kind: Kind
        /// When (the round that caused it).
        public var at: Date
        /// From which rung to which.
        public var from: Int
        public var to: Int
        /// Why, in words.
        public var why: String
    }

    /// What to play next.
    public struct Pick: Sendable, Equatable {
        /// The rung, from 1.
        public var rung: Int
        /// Whether it is a re-test of a mastered rung.
        public var retest: Bool
        /// Why this rung, in words.
        public var why: String

        /// A pick.
        public init(rung: Int, retest: Bool, why: String) {
            self.rung = rung
            self.retest = retest
            self.why = why
        }
    }

    /// The ladder before any round: the first rung.
    public init() { rung = 1 }

    /// The rules replayed over `rounds` (this ladder's, oldest first).
    public init(rounds: [LadderRound], rungCount: Int, rules: LadderRules) {
        self.init()
        for round in rounds { apply(round, rungCount: rungCount, rules: rules) }
    }

    /// Takes one more round.
    public mutating func apply(_ round: LadderRound, rungCount: Int, rules: LadderRules) {
        guard (1...max(1, rungCount)).contains(round.rung) else { return }
        if round.retest, let mastered = masteredOn[round.rung] {
            guard round.at >= mastered else { return }
            retests[round.rung, default: []].append(round.at)
            if let after = round.sudsAfter, after >= rules.returnOfFearSuds {
                // That rung and every rung above it, climbed from it, are to
                // be mastered again: no re-test above where the ladder goes back to.
                for number in Array(masteredOn.keys) where number >= round.rung {
                    masteredOn[number] = nil
                    retests[number] = nil
                }
                complete = false
                move(.back, to: round.rung, at: round.at, why: "fear came back on the re-test of rung \(round.rung) (distress after \(after) ≥ \(rules.returnOfFearSuds))")
            }
            return
        }
        // A round played with --rung on another rung is kept in the history
        // but does not move the ladder: the rules step one rung at a time from
        // where they put the person (a single try of rung 9 from rung 2 would
        // otherwise leave the next round on rung 9).
        guard round.rung == rung else { return }
        recent = Array((recent + [round]).suffix(rules.stepDownRounds))
        if round.counts(rules) { recentCounted = Array((recentCounted + [round]).suffix(rules.stepUpRounds)) }
        if recentCounted.count >= rules.stepUpRounds, recentCounted.allSatisfy({ $0.endedCalm(rules) }) {
            if masteredOn[rung] == nil {
                masteredOn[rung] = round.at
                retests[rung] = nil
            }
            if rung < rungCount {
                move(.up, to: rung + 1, at: round.at, why: "the last \(rules.stepUpRounds) counted rounds on rung \(rung) ended calm: step up")
            } else {
                complete = true
                arrive()
            }
            return
        }
        if recent.count >= rules.stepDownRounds, recent.allSatisfy({ $0.releasedEarlyAtPeak(rules) }) {
            if rung > 1 {
                move(.down, to: rung - 1, at: round.at, why: "\(rules.stepDownRounds) rounds in a row on rung \(rung) let go early at a high peak: step down")
            } else {
                arrive()
            }
        }
    }

    private mutating func move(_ kind: Step.Kind, to target: Int, at: Date, why: String) {
        steps.append(Step(kind: kind, at: at, from: rung, to: target, why: why))
        rung = target
        arrive()
    }

    /// The rounds on the rung start again (the ladder came to it, or stays on it afresh).
    private mutating func arrive() {
        recent = []
        recentCounted = []
    }

    /// When rung `number`'s next re-test is due (nil: not mastered, or every re-test taken).
    public func retestDue(_ number: Int, rules: LadderRules) -> Date? {
        guard let mastered = masteredOn[number] else { return nil }
        let taken = retests[number]?.count ?? 0
        guard taken < rules.retestDays.count else { return nil }
        return mastered.addingTimeInterval(Double(rules.retestDays[taken]) * 86_400)
    }

    /// The re-tests due at `now`, the earliest due first (a tie: the lower rung).
    public func dueRetests(now: Date, rules: LadderRules) -> [(rung: Int, due: Date)] {
        masteredOn.keys.compactMap { number in retestDue(number, rules: rules).map { (rung: number, due: $0) } }
            .filter { $0.due <= now }
            .sorted { $0.due != $1.due ? $0.due < $1.due : $0.rung < $1.rung }
    }

    /// What a ladder round started without `--rung` plays at `now`: a due re-test first, else the current rung.
    public func next(now: Date, rules: LadderRules) -> Pick {
        if let due = dueRetests(now: now, rules: rules).first {
            let days = masteredOn[due.rung].map { Int((now.timeIntervalSince($0) / 86_400).rounded(.down)) } ?? 0
            return Pick(rung: due.rung, retest: true, why: "re-test of rung \(due.rung), mastered \(days) days ago")
        }
        if complete { return Pick(rung: rung, retest: false, why: "every rung mastered: the top rung again") }
        return Pick(rung: rung, retest: false, why: steps.last?.why ?? "the first rung")
    }
}
