// The scorer over a hostile stream: a start dated with no time, and more
// sections than any person plays (a stream of 300,000 made a 64 MB history
// line that every later report read).

import ScoreKit
import SposureKit
import TestSupport
import Testing

@Suite struct RoundScorerHostileTests {
    @Test func aStartWithNoTimeIsSaidAndTheRoundDatedWhenScored() {
        for at in [#""garbage""#, #""2026-02-30T10:00:00Z""#, "123"] {
            let start = #"{"kind":"session","event":"start","at":\#(at),"clock":"real","on_release":"end"}"#
            let (rounds, warnings) = score([start, Event.hold(0, 1000), Event.end(1000)])
            #expect(rounds.count == 1)
            #expect(rounds.first?.at == nil, "\(at)")
            #expect(warnings == ["a session start whose at \(at) is no time like 2026-11-21T10:00:00Z: the round is dated when it is scored"])
        }
        #expect(score([Event.start(), Event.end(10)]).warnings.isEmpty)
    }

    @Test func aRoundKeepsAtMost200SectionsTheRestTogether() {
        let shown = (0..<1000).map { Event.shown("g\($0)", section: "s\($0)", start: $0 * 10, end: $0 * 10 + 10) }
        let (rounds, _) = score([Event.start()] + shown + [Event.hold(0, 10_000), Event.end(10_000)])
        let sections = rounds.first?.sections ?? []
        #expect(sections.count == 200)
        #expect(sections.prefix(199).map(\.name) == (0..<199).map { "s\($0)" })
        #expect(sections.last?.name == "(other sections)")
        #expect(sections.last?.gifsShown == 801)
        #expect(sections.reduce(0) { $0 + $1.exposedMs } == rounds.first?.exposedMs, "no exposure lost")
    }
}
