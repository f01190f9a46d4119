// What each API's real answers say of a result beyond its pictures (title,
// slug, tags, creator), read from ../shared/corpus as the lister reads them
// (issue 22: the avoid lists match them, gif-play credits the creator).

import Foundation
import GiphyKit
import SposureKit
import Testing
import TestSupport

struct ResultTextTests {
    /// The items of `file` in the corpus folder `provider` (`data` or `data.data`), or nil with a message when absent.
    func items(_ provider: String, _ file: String) throws -> [JSONRecord]? {
        let url = URL(fileURLWithPath: Corpus.root + "/\(provider)/\(file)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if Corpus.required { Issue.record("the corpus is absent (looked for \(url.path))") }
            print("ResultTextTests: SKIPPED — the corpus is absent (looked for \(url.path))")
            return nil
        }
        let answer = try JSONRecord.parse(Array(data))
        return answer.objects("data") ?? answer.object("data")?.objects("data")
    }

    @Test func giphysAnswersGiveTheSlugWithoutTheIdAndTheCreatorsNames() throws {
        guard let trending = try items("giphy", "trending_25items_ryanw-mobile.json") else { return }
        let first = GiphyAPI().text(of: trending[0])
        #expect(first.title == "College Basketball Sport GIF by Ohio State Athletics")
        #expect(first.slug == "ohiostathletics-basketball-ohio-state-hoops")
        #expect(first.creatorNames == ["Ohio State Athletics", "ohiostathletics", "ohiostathletics"])
        #expect(first.creator == "Ohio State Athletics")
        // No user and an empty username: nobody to credit.
        let anonymous = try #require(trending.first { $0.string("id") == "SggILpMXO7Xt6" })
        #expect(GiphyAPI().text(of: anonymous).creator == nil)
        guard let search = try items("giphy", "search_5items_giphy-js.json") else { return }
        #expect(search.map { GiphyAPI().text(of: $0).creator } == [nil, "It's Always Sunny in Philadelphia", nil, nil, nil])
        #expect(GiphyAPI().text(of: search[0]).tags == [])
    }

    @Test func theCreatorGoesIntoTheGIFRecord() throws {
        guard let trending = try items("giphy", "trending_25items_ryanw-mobile.json") else { return }
        let page = PageRequest(endpoint: .trending, query: nil, section: "trending", offset: 0, limit: 25, rating: "g", lang: "en", total: nil)
        let made = try GiphyAPI().make(item: trending[0], index: 0, page: page, pageRecord: nil, choices: ["fixed_height"]).get()
        #expect(made.string("creator") == "Ohio State Athletics")
        #expect(made.keys.prefix(4) == ["kind", "id", "title", "creator"])
    }

    @Test func klipysAnswersGiveTitleSlugAndTagsButNoCreator() throws {
        guard let klipy = try items("klipy", "search-page1.json") else { return }
        let text = KlipyAPI().text(of: klipy[0])
        #expect(text == ResultText(title: "Adios GIF Master Cat in Mountains", slug: "adios-16", tags: []))
        #expect(text.creator == nil)
        #expect(klipy.map { KlipyAPI().text(of: $0).slug } == ["adios-16", "stupid-bye", "sukuna-evil"])
    }

    @Test func aSlugThatIsOnlyTheIdIsNone() {
        #expect(ResultText.slug("abc123", id: "abc123") == nil)
        #expect(ResultText.slug("", id: "x") == nil)
        #expect(ResultText.slug("spider-man-x1", id: "x1") == "spider-man")
        #expect(ResultText.slug("spider-man", id: nil) == "spider-man")
    }

    /// Issue 28 #4: a tag list with one element that is not a string
    /// (`["spider-man", 5]`) dropped every tag, so the avoid list saw none.
    @Test func aTagListKeepsItsStringsWhateverElseItHolds() throws {
        let item = try JSONRecord.parse(Array(#"{"id":"a","title":"x","slug":"x-a","tags":["spider-man",5,null,{"t":1},"marvel"]}"#.utf8))
        #expect(GiphyAPI().text(of: item).tags == ["spider-man", "marvel"])
        #expect(KlipyAPI().text(of: item).tags == ["spider-man", "marvel"])
    }

    /// Issue 28 #6: a megabyte of title (or of tags) is cut to what is matched and shown.
    @Test func aLongTitleAndManyTagsAreCut() {
        let text = ResultText(title: String(repeating: "a", count: 1_000_000), tags: Array(repeating: "t", count: 10_000),
                              creatorNames: [String(repeating: "c", count: 5_000)])
        #expect(text.title.count == 1024)
        #expect(text.tags.count == 100)
        #expect(text.creatorNames.map(\.count) == [1024])
    }
}
