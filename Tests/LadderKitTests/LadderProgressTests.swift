import Foundation
@testable import LadderKit
import Testing

/// Day `n` of a made-up history, at 10:00 UTC.
func day(_ n: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + n * 86_400) }

/// A counted (60 s), calm round on `rung`.
func calm(_ rung: Int, on n: Double, after: Int = 2) -> LadderRound {
    LadderRound(at: day(n), rung: rung, exposedMs: 60_000, peak: 6, sudsAfter: after)
}

/// A round let go after 5 s at a peak of 9.
func fled(_ rung: Int, on n: Double, peak: Int = 9, exposedMs: Int = 5_000) -> LadderRound {
    LadderRound(at: day(n), rung: rung, exposedMs: exposedMs, peak: peak, sudsAfter: 8)
}

let rules = LadderRules()

func progress(_ rounds: [LadderRound], rungs: Int = 10) -> LadderProgress {
    LadderProgress(rounds: rounds, rungCount: rungs, rules: rules)
}

struct LadderProgressTests {
    @Test func startsOnTheFirstRung() {
        #expect(progress([]).rung == 1)
        #expect(progress([]).next(now: day(0), rules: rules) == LadderProgress.Pick(rung: 1, retest: false, why: "the first rung"))
    }

    @Test func stepsUpAfterTwoCalmCountedRounds() {
        #expect(progress([calm(1, on: 0)]).rung == 1)
        let state = progress([calm(1, on: 0), calm(1, on: 1)])
        #expect(state.rung == 2)
        #expect(state.masteredOn[1] == day(1))
    }

    @Test func aRoundUnderSixtySecondsDoesNotCount() {
        var short = calm(1, on: 1)
        short.exposedMs = 59_999
        #expect(progress([calm(1, on: 0), short]).rung == 1)
        short.exposedMs = 60_000
        #expect(progress([calm(1, on: 0), short]).rung == 2)
        // A short round between two counted ones does not break them.
        var between = calm(1, on: 0.5, after: 9)
        between.exposedMs = 1_000
        #expect(progress([calm(1, on: 0), between, calm(1, on: 1)]).rung == 2)
    }

    /// The rules keep only the last rounds they look at: after a long stay
    /// (here 20,000 rounds too short to count, and tense counted ones), a
    /// counted calm round still pairs with the last counted one before the
    /// stay, and a step down still needs its rounds in a row.
    @Test func aLongStayOnOneRungKeepsTheRulesExact() {
        var short = calm(1, on: 0.5, after: 9)
        short.exposedMs = 1_000
        let stay = Array(repeating: short, count: 20_000)
        #expect(progress([calm(1, on: 0)] + stay + [calm(1, on: 1)]).rung == 2)
        #expect(progress([calm(1, on: 0, after: 8)] + stay + [calm(1, on: 1)]).rung == 1)
        var onTwo = progress([calm(1, on: 0), calm(1, on: 0.1)])
        for round in [fled(2, on: 1)] + Array(repeating: calm(2, on: 1.5, after: 8), count: 5_000) + [fled(2, on: 2)] {
            onTwo.apply(round, rungCount: 10, rules: rules)
        }
        #expect(onTwo.rung == 2, "two early releases, not in a row: no step down")
        #expect(onTwo.recent.count == rules.stepDownRounds && onTwo.recentCounted.count == rules.stepUpRounds,
                "5,002 rounds on the rung, two of each kept")
        onTwo.apply(fled(2, on: 3), rungCount: 10, rules: rules)
        #expect(onTwo.rung == 1)
    }

    @Test func calmIsThreeOrLess() {
        #expect(progress([calm(1, on: 0, after: 3), calm(1, on: 1, after: 3)]).rung == 2)
        #expect(progress([calm(1, on: 0, after: 3), calm(1, on: 1, after: 4)]).rung == 1)
    }

    @Test func orFallenByHalfFromThePeak() {
        let halved = LadderRound(at: day(0), rung: 1, exposedMs: 60_000, peak: 10, sudsAfter: 5)
        let notHalved = LadderRound(at: day(1), rung: 1, exposedMs: 60_000, peak: 9, sudsAfter: 5)
        #expect(progress([halved, halved]).rung == 2)
        #expect(progress([halved, notHalved]).rung == 1)
    }

    @Test func anUnratedRoundIsNotCalm() {
        let unrated = LadderRound(at: day(1), rung: 1, exposedMs: 90_000)
        #expect(progress([calm(1, on: 0), unrated]).rung == 1)
    }

    @Test func onlyTheLastTwoCountedRoundsMatter() {
        #expect(progress([calm(1, on: 0, after: 8), calm(1, on: 1), calm(1, on: 2)]).rung == 2)
        #expect(progress([calm(1, on: 0), calm(1, on: 1, after: 8), calm(1, on: 2)]).rung == 1)
    }

    @Test func roundsBeforeArrivingDoNotCount() {
        // Stepping up to 2 then one calm round on 2: still on 2.
        #expect(progress([calm(1, on: 0), calm(1, on: 1), calm(2, on: 2)]).rung == 2)
        #expect(progress([calm(1, on: 0), calm(1, on: 1), calm(2, on: 2), calm(2, on: 3)]).rung == 3)
    }

    @Test func stepsDownAfterTwoEarlyReleasesAtAHighPeak() {
        let start = [calm(1, on: 0), calm(1, on: 1), calm(2, on: 2), calm(2, on: 3)]  // on rung 3
        #expect(progress(start + [fled(3, on: 4)]).rung == 3)
        let state = progress(start + [fled(3, on: 4), fled(3, on: 5)])
        #expect(state.rung == 2)
        #expect(state.steps.last?.why == "2 rounds in a row on rung 3 let go early at a high peak: step down")
    }

    @Test func stepDownBoundaries() {
        let start = [calm(1, on: 0), calm(1, on: 1)]  // on rung 2
        #expect(progress(start + [fled(2, on: 2), fled(2, on: 3, exposedMs: 9_999)]).rung == 1)
        #expect(progress(start + [fled(2, on: 2), fled(2, on: 3, exposedMs: 10_000)]).rung == 2)
        #expect(progress(start + [fled(2, on: 2), fled(2, on: 3, peak: 8)]).rung == 1)
        #expect(progress(start + [fled(2, on: 2), fled(2, on: 3, peak: 7)]).rung == 2)
        // Not in a row: a round between breaks them.
        let between = LadderRound(at: day(2.5), rung: 2, exposedMs: 20_000, peak: 5, sudsAfter: 4)
        #expect(progress(start + [fled(2, on: 2), between, fled(2, on: 3)]).rung == 2)
        // A round that ran out (eof), not let go, is no release.
        var ranOut = fled(2, on: 3)
        ranOut.endReason = "eof"
        #expect(progress(start + [fled(2, on: 2), ranOut]).rung == 2)
    }

    @Test func neverBelowTheFirstNorAboveTheTop() {
        #expect(progress([fled(1, on: 0), fled(1, on: 1)]).rung == 1)
        var rounds: [LadderRound] = []
        for rung in 1...8 { rounds += [calm(rung, on: Double(rung * 2)), calm(rung, on: Double(rung * 2 + 1))] }
        let state = progress(rounds, rungs: 8)
        #expect(state.rung == 8)
        #expect(state.complete)
    }

    @Test func onlyOneRungAtATime() {
        // Four calm rounds on rung 1 step up once (the two after belong to rung 1, played again by --rung).
        let state = progress([calm(1, on: 0), calm(1, on: 1), calm(2, on: 2)])
        #expect(state.rung == 2)
        #expect(state.steps.count == 1)
    }

    /// Review of issue 15: a round played with --rung on another rung moved
    /// the ladder there, so one try of rung 9 from rung 2 left the next
    /// automatic round on rung 9. It is kept, and the ladder stays.
    @Test func aRungPlayedWithRungDoesNotMoveTheLadder() {
        let state = progress([fled(9, on: 0), fled(9, on: 1), calm(5, on: 2), calm(5, on: 3)])
        #expect(state.rung == 1)
        #expect(state.steps.isEmpty)
        // The current rung's own rounds still step it, one rung at a time.
        #expect(progress([calm(7, on: 0), calm(1, on: 1), calm(1, on: 2)]).rung == 2)
    }

    @Test func fearComingBackClearsTheMasteryOfEveryRungAboveIt() {
        // Rungs 1, 2 and 3 mastered on days 1, 3 and 5; the ladder is on rung 4.
        var rounds: [LadderRound] = []
        for rung in 1...3 { rounds += [calm(rung, on: Double(rung * 2 - 1) - 0.5), calm(rung, on: Double(rung * 2 - 1))] }
        var state = progress(rounds)
        #expect(state.rung == 4)
        var retest = calm(1, on: 8)
        retest.retest = true
        retest.sudsAfter = 6
        state = progress(rounds + [retest])
        #expect(state.rung == 1)
        // No re-test of rungs 2 or 3 above where the ladder went back to.
        #expect(state.dueRetests(now: day(60), rules: rules).isEmpty)
    }

    @Test func aRetestIsDueAfterSevenAndAfterTwentyEightDays() {
        let state = progress([calm(1, on: 0), calm(1, on: 1)])  // rung 1 mastered on day 1
        #expect(state.retestDue(1, rules: rules) == day(8))
        #expect(state.dueRetests(now: day(7.99), rules: rules).isEmpty)
        #expect(state.next(now: day(8), rules: rules) == LadderProgress.Pick(rung: 1, retest: true, why: "re-test of rung 1, mastered 7 days ago"))
        let retested = LadderRound(at: day(8), rung: 1, exposedMs: 60_000, peak: 4, sudsAfter: 2, retest: true)
        let after = progress([calm(1, on: 0), calm(1, on: 1), retested])
        #expect(after.rung == 2)
        #expect(after.retestDue(1, rules: rules) == day(29))
        #expect(after.next(now: day(20), rules: rules).retest == false)
        let second = LadderRound(at: day(29), rung: 1, exposedMs: 60_000, sudsAfter: 1, retest: true)
        #expect(progress([calm(1, on: 0), calm(1, on: 1), retested, second]).retestDue(1, rules: rules) == nil)
    }

    @Test func fearThatCameBackPutsTheLadderBack() {
        let base = [calm(1, on: 0), calm(1, on: 1), calm(2, on: 2), calm(2, on: 3)]  // on rung 3, 1 and 2 mastered
        let back = LadderRound(at: day(9), rung: 1, exposedMs: 30_000, peak: 7, sudsAfter: 5, retest: true)
        let state = progress(base + [back])
        #expect(state.rung == 1)
        #expect(state.masteredOn[1] == nil)
        // Rung 2 was climbed from rung 1: it is to be mastered again too.
        #expect(state.masteredOn[2] == nil)
        #expect(state.steps.last?.why == "fear came back on the re-test of rung 1 (distress after 5 ≥ 5)")
        var held = back
        held.sudsAfter = 4
        #expect(progress(base + [held]).rung == 3)
    }

    @Test func theEarliestDueRetestComesFirst() {
        let state = progress([calm(1, on: 0), calm(1, on: 1), calm(2, on: 2), calm(2, on: 3)])
        let due = state.dueRetests(now: day(40), rules: rules)
        #expect(due.map(\.rung) == [1, 2])
        #expect(state.next(now: day(40), rules: rules).rung == 1)
    }

    @Test func rulesFromTheFileChangeTheBoundaries() {
        var strict = LadderRules()
        strict.stepUpRounds = 3
        strict.countMs = 120_000
        let slow = [LadderRound](repeating: LadderRound(at: day(0), rung: 1, exposedMs: 120_000, sudsAfter: 1), count: 2)
        #expect(LadderProgress(rounds: slow, rungCount: 10, rules: strict).rung == 1)
        #expect(LadderProgress(rounds: slow + [slow[0]], rungCount: 10, rules: strict).rung == 2)
    }
}
