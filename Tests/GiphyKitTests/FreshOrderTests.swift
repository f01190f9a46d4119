import Foundation
import GiphyKit
import HistoryKit
import LadderKit
import SposureKit
import Testing

/// What `list` holds back (GIFs seen lately) and what a ladder's pages carry for it (issue 22).
struct FreshOrderTests {
    func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func heldLinesComeBackTheLongestUnseenFirstThenInTheOrderListed() {
        let fresh = FreshOrder(file: SeenFile(path: "/nonexistent/seen.ndjson"))
        #expect(fresh.hold(line("a0"), age: 0) && fresh.hold(line("b2"), age: 2) && fresh.hold(line("c0"), age: 0) && fresh.hold(line("d2"), age: 2))
        #expect(fresh.release().map { String(decoding: $0, as: UTF8.self) } == ["b2", "d2", "a0", "c0"])
        #expect(fresh.release().isEmpty)
    }

    @Test func aFullHoldLetsTheMostLatelySeenGo() {
        let fresh = FreshOrder(file: SeenFile(path: "/nonexistent/seen.ndjson"))
        for index in 0..<FreshOrder.capacity { #expect(fresh.hold(line("old\(index)"), age: 3)) }
        // As lately seen as the rest, or more: it is the one left out.
        #expect(!fresh.hold(line("late"), age: 1))
        #expect(!fresh.hold(line("same"), age: 3))
        // Seen longer ago: the last listed of the most lately seen gives way.
        #expect(!fresh.hold(line("older"), age: 4))
        let released = fresh.release().map { String(decoding: $0, as: UTF8.self) }
        #expect(released.count == FreshOrder.capacity)
        #expect(released.first == "older" && !released.contains("late") && !released.contains("same") && !released.contains("old199"))
    }

    @Test func aMissingSeenFileHoldsNothingBackAndZeroRoundsReadNothing() {
        let fresh = FreshOrder(file: SeenFile(path: "/nonexistent/seen.ndjson"))
        let page = PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 0, limit: 5, rating: "g", lang: "en", total: 5)
        #expect(fresh.ages(page: page, record: JSONRecord()).isEmpty)
        #expect(fresh.readProblem == nil)
    }

    @Test func aLadderPlanCarriesItsRungsAvoidListsAndASetFreshRoundsRule() {
        var rules = LadderRules()
        rules.freshRounds = 3
        let ladder = Ladder(name: "spiders", title: "Spiders", rungs: (1...8).map { number in
            Rung(queries: ["r\(number)"], suds: number * 10, avoid: number == 2 ? ["web design"] : [])
        }, rules: rules, avoid: ["spider-man"])
        let plan = LadderPagePlan(ladder: ladder, rung: 2, retest: false, mix: true, mastered: [1])
        #expect(plan.avoid["r2"]?.entries == ["spider-man", "web design"])
        #expect(plan.avoid["r1"]?.entries == ["spider-man"])
        #expect(plan.freshRounds == 3)
        #expect(LadderPagePlan(ladder: Ladder(name: "x", title: "X", rungs: ladder.rungs), rung: 1, retest: false, mix: false,
                               mastered: []).freshRounds == nil)
        var page = PageRequest(endpoint: .search, query: "r2", section: "r2", offset: 0, limit: 5, rating: "g", lang: "en", total: 5)
        page.avoid = plan.avoid["r2"] ?? AvoidList()
        page.freshRounds = plan.freshRounds
        let record = page.record()
        page.writeListing(to: record)
        #expect(record.text.hasSuffix(#""total":5,"avoid":["spider-man","web design"],"fresh_rounds":3}"#))
        #expect((try? PageRequest(record: record)) == page)
    }
}
