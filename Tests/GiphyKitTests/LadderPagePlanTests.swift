import GiphyKit
import LadderKit
import SposureKit
import Testing

/// `giphy-pages plan --ladder NAME --mix`: the pages of the rung, with one in
/// `mix_every` (4) from a mastered rung (issue 15).
@Suite struct LadderPagePlanTests {
    /// Eight rungs; rung N searches "rN", rung 3 searches "r3a" and "r3b".
    let ladder = Ladder(name: "spiders", title: "Spiders", rungs: (1...8).map { number in
        Rung(queries: number == 3 ? ["r3a", "r3b"] : ["r\(number)"], suds: number * 10, still: number == 1)
    })

    func pages(_ query: String, _ count: Int) -> [PageRequest] {
        (0..<count).map { PageRequest(endpoint: .search, query: query, section: query, offset: $0 * 25, limit: 25,
                                      rating: "g", lang: "en", total: 1000) }
    }

    func order(_ plan: LadderPagePlan, pagesEach: Int) -> [String] {
        plan.order(plan.allQueries.map { pages($0, pagesEach) }).map { "\($0.section)@\($0.offset / 25)" }
    }

    @Test func mixWeavesOnePageInFourFromTheMasteredRungsInTurn() {
        let plan = LadderPagePlan(ladder: ladder, rung: 3, retest: false, mix: true, mastered: [2, 1, 5])
        #expect(plan.queries == ["r3a", "r3b"])
        #expect(plan.mixQueries == ["r1", "r2"])  // mastered below the rung, easiest first; rung 5 is above
        #expect(order(plan, pagesEach: 6) == [
            "r3a@0", "r3b@0", "r3a@1", "r1@0",
            "r3b@1", "r3a@2", "r3b@2", "r2@0",
            "r3a@3", "r3b@3", "r3a@4", "r1@1",
            "r3b@4", "r3a@5", "r3b@5", "r2@1",
        ])
        let all = order(plan, pagesEach: 60)
        let mixed = all.filter { $0.hasPrefix("r1@") || $0.hasPrefix("r2@") }.count
        #expect(all.count == 160)
        #expect(mixed == 40)  // one in four: 120 of the rung, 40 woven in
        // Every window of four pages holds exactly one mixed-in page.
        for start in stride(from: 0, to: all.count - 3, by: 4) {
            #expect(all[start..<start + 4].filter { $0.hasPrefix("r1@") || $0.hasPrefix("r2@") }.count == 1)
        }
    }

    @Test func mixedPagesAreTaggedWithTheirOwnRungAndMix() {
        let plan = LadderPagePlan(ladder: ladder, rung: 3, retest: false, mix: true, mastered: [1])
        let record = JSONRecord()
        record.set("kind", "page")
        plan.tag(record, section: "r1")
        #expect(record.text == #"{"kind":"page","ladder":"spiders","rung":1,"rung_suds":10,"mix":true,"still":true}"#)
        let main = JSONRecord()
        plan.tag(main, section: "r3b")
        #expect(main.text == #"{"ladder":"spiders","rung":3,"rung_suds":30}"#)
    }

    @Test func aRetestOrNoMixPlaysTheRungAlone() {
        let retest = LadderPagePlan(ladder: ladder, rung: 3, retest: true, mix: true, mastered: [1, 2])
        #expect(retest.mixQueries.isEmpty)
        #expect(order(retest, pagesEach: 2) == ["r3a@0", "r3b@0", "r3a@1", "r3b@1"])
        let plain = LadderPagePlan(ladder: ladder, rung: 3, retest: false, mix: false, mastered: [1, 2])
        #expect(plain.mixQueries.isEmpty)
        let nothingMastered = LadderPagePlan(ladder: ladder, rung: 3, retest: false, mix: true, mastered: [])
        #expect(order(nothingMastered, pagesEach: 2) == ["r3a@0", "r3b@0", "r3a@1", "r3b@1"])
    }
}
