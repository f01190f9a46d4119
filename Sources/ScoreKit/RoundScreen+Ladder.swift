import LadderKit
import SposureKit

extension RoundScreen {
    /// The rows a ladder round adds to the Game Over screen: where it was
    /// played, what the rules made of it and what comes next, the player's
    /// ratings, and a reminder of what the tool is. Nothing off a ladder.
    ///
    /// ```
    ///   Ladder        spiders, rung 2 (expected distress 1 of 10)
    ///   Step          up to rung 3: the last 2 counted rounds on rung 2 ended calm
    ///   Next round    rung 3
    ///   Peak          7 of 10
    ///   Expected      70% likely; it did not happen
    ///   Self-help practice, not a treatment: let go or press q to stop at any time.
    /// ```
    static func ladderRows(_ scored: ScoredRound, style: TextStyle) -> [(label: String, value: String)] {
        guard let tag = scored.round.ladder else { return [] }
        var rows: [(label: String, value: String)] = []
        let name = RemoteText.clean(tag.ladder, limit: 40)
        let kind = tag.retest ? ", a re-test" : ""
        rows.append(("Ladder", "\(name), rung \(tag.rung) (expected distress \(tenths(tag.rungSuds)) of 10\(kind))"))
        if let outcome = scored.ladderOutcome {
            // The rules' reason without its closing verdict, which the row already says.
            var why = outcome.why
            for verdict in [": step up", ": step down"] where why.hasSuffix(verdict) { why = String(why.dropLast(verdict.count)) }
            switch outcome.step {
            case .up: rows.append(("Step", style.green("up to rung \(outcome.rung)") + ": " + why))
            case .down: rows.append(("Step", "back to rung \(outcome.rung), an easier one: " + why))
            case .back: rows.append(("Step", "rung \(outcome.rung) again, to practise until it is calm: " + why))
            case .complete: rows.append(("Step", style.green("the top rung is mastered: the ladder is climbed")))
            case .stay: rows.append(("Step", "stay on rung \(outcome.rung)" + (tag.retest ? ": the re-test held" : "")))
            }
            rows.append(("Next round", "rung \(outcome.nextRung)" + (outcome.nextRetest ? ", a re-test of a rung you mastered" : "")))
        } else {
            rows.append(("Step", style.dim("not worked out (no history: --no-history, or the ladder or the history could not be read)")))
        }
        let ratings = scored.round.ratings
        if let peak = ratings.peak { rows.append(("Peak", "\(peak) of 10")) }
        if let expect = ratings.expectPct {
            let happened = ratings.happened.map { $0 ? "; it happened" : "; it did not happen" } ?? ""
            rows.append(("Expected", "\(expect)% likely\(happened)"))
        }
        return rows
    }

    /// A rung's SUDS (0–100) on the 0–10 scale the person rates on, in tenths: 5 → "0.5", 40 → "4".
    static func tenths(_ suds: Int) -> String {
        suds % 10 == 0 ? "\(suds / 10)" : "\(suds / 10).\(abs(suds % 10))"
    }

    /// The reminder under a ladder round's screen.
    static let ladderReminder = "Self-help practice, not a treatment: let go or press q to stop at any time."
}
