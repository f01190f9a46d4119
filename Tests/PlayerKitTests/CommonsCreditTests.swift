// Issue 31 item 4: a Wikimedia Commons picture is credited as its licence
// asks, on the status line and in its shown event.

import RecordKit
import PlayerKit
import SposureKit
import Testing

struct CommonsCreditTests {
    let page = "https://commons.wikimedia.org/wiki/File:Spider.jpg"

    @Test func theStatusLineNamesTheAuthorTheLicenceAndWikimediaCommons() throws {
        let record = try JSONRecord.parse(#"{"kind":"image","provider":"commons","id":"1","creator":"Jane Doe","author":"Jane Doe","license":"CC BY-SA 4.0","page_url":"\#(page)"}"#)
        let credit = try #require(Credit(record: record))
        #expect(RoundStatus(exposedMs: 2000, gifsSeen: 1, section: "spiders", loading: false, credit: credit).text
                == "exposure 2s · 1 GIF · spiders · Wikimedia Commons · by Jane Doe · CC BY-SA 4.0")
        #expect(credit.picture == PictureCredit(author: "Jane Doe", license: "CC BY-SA 4.0", pageURL: page))
    }

    @Test func aHostileAuthorAndLicenceAreShownSafe() throws {
        let record = try JSONRecord.parse(#"{"kind":"image","provider":"commons","id":"1","creator":"Evil\u001b]0;pwned\u0007\u001b[2J Name\u202e","license":"CC\u001b[31m BY\u009b2J"}"#)
        let text = try #require(Credit(record: record)).text
        #expect(!text.unicodeScalars.contains { RemoteText.isTerminalControl($0) }, "\(text.debugDescription)")
        #expect(text == "Wikimedia Commons · by Evil Name · CC BY")
    }

    @Test func aGiphyShownEventIsAsItWasAndACommonsOneCarriesTheCredit() throws {
        let giphy = RoundEvent.Shown(id: "a", section: "s", query: nil, startMs: 0, endMs: 1, exposedMs: 1, frames: 1, completed: true)
        #expect(RoundEvent.shown(giphy).record.serialized() == Array(#"{"kind":"shown","id":"a","section":"s","start_ms":0,"end_ms":1,"exposed_ms":1,"frames":1,"completed":true}"#.utf8))
        var commons = giphy
        commons.provider = "commons"
        commons.credit = PictureCredit(author: "Jane Doe", license: "CC0")
        let line = #"{"kind":"shown","id":"a","section":"s","start_ms":0,"end_ms":1,"exposed_ms":1,"frames":1,"completed":true,"provider":"commons","author":"Jane Doe","license":"CC0"}"#
        #expect(RoundEvent.shown(commons).record.serialized() == Array(line.utf8))
        #expect(RoundEvent.read(try JSONRecord.parse(line)).event == .shown(commons))
    }

    @Test func aCreditKeepsAtMostItsLengthOfEachField() throws {
        let long = String(repeating: "é", count: 100_000)
        let record = try JSONRecord.parse(#"{"author":"\#(long)","license":"CC0","page_url":"\#(long)"}"#)
        let credit = try #require(PictureCredit(record: record))
        #expect(credit.author == String(repeating: "é", count: PictureCredit.maxFieldLength))
        #expect(credit.pageURL?.count == PictureCredit.maxFieldLength)
        #expect(credit.license == "CC0")
    }
}
