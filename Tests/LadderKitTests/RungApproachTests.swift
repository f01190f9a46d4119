import LadderKit
import RecordKit
import SposureKit
import Testing

/// Issue 31 item 6: a rung asks for its stills to come closer, and its tag carries that to gif-play.
struct RungApproachTests {
    @Test func aRungAsksForTheApproachAndItsTagCarriesIt() throws {
        let ladder = try LadderFile.parse(ladderJSON { number in
            number == 1 ? "{\"query\": \"q\", \"suds\": 10, \"still\": true, \"approach\": true}" : "{\"dir\": \"/d\", \"suds\": \(number * 10), \"approach\": false}"
        }, file: "mine.json")
        #expect(ladder.rungs[0].approach && !ladder.rungs[1].approach)
        #expect(message(ladderJSON { "{\"query\": \"q\", \"suds\": \($0 * 10), \"approach\": 1}" })
                == "mine.json: rung 1, \"approach\": must be true or false, found 1")
        let record = JSONRecord()
        LadderTag(ladder: "spiders", rung: 1, rungSuds: 10, still: true).approaching(true).write(to: record)
        #expect(String(decoding: record.serialized(), as: UTF8.self)
                == #"{"ladder":"spiders","rung":1,"rung_suds":10,"still":true,"approach":true}"#)
        #expect(LadderTag(record: record)?.approach == true)
    }
}
