// Helpers over the event lines of TestSupport's Event.

import ScoreKit
import SposureKit
import TestSupport

/// Feeds `lines` to a scorer; a line that is not a record counts as a bad line.
func score(_ lines: [String]) -> (rounds: [Round], warnings: [String]) {
    var scorer = RoundScorer()
    var warnings: [String] = []
    for line in lines {
        if let record = try? JSONRecord.parse(line) {
            if let warning = scorer.add(record) { warnings.append(warning) }
        } else {
            scorer.addBadLine()
        }
    }
    return (scorer.finish(), warnings)
}
