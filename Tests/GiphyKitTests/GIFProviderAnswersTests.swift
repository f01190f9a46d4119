import NetKit
import GiphyKit
import SposureKit
import Testing

/// What differs between the APIs once an answer is in, asked of the provider.
@Suite struct GIFProviderAnswersTests {
    func items(_ texts: [String]) throws -> [JSONRecord] { try texts.map { try JSONRecord.parse($0) } }

    @Test func aGIFIsNamedByItsProviderAndExactID() throws {
        let giphy = try JSONRecord.parse(#"{"id":"abc123"}"#)
        #expect(GIFProvider.giphy.gifKey(of: giphy) == "giphy:abc123")
        // Klipy's ids are integers past 2^53: kept exact, never through a double.
        let klipy = try JSONRecord.parse(#"{"id":9007199254740993}"#)
        #expect(GIFProvider.klipy.gifKey(of: klipy) == "klipy:9007199254740993")
        #expect(GIFProvider.klipy.gifKey(of: try JSONRecord.parse(#"{"id":"77"}"#)) == "klipy:77")
        #expect(GIFProvider.klipy.gifKey(of: try JSONRecord.parse(#"{"id":1.5}"#)) == nil)
        #expect(GIFProvider.giphy.gifKey(of: try JSONRecord.parse(#"{"title":"x"}"#)) == nil)
    }

    @Test func aKlipyPageKeepsItsLimitAGiphyPageAll() throws {
        let answer = try items((1...5).map { #"{"id":\#($0)}"# })
        let page = PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 0, limit: 3,
                               rating: "g", lang: "en", total: nil)
        #expect(GIFProvider.klipy.api.kept(answer, page: page).count == 3)
        #expect(GIFProvider.giphy.api.kept(answer, page: page).count == 5)
    }

    /// `--rendition` names one API's rendition (or size); every other API keeps its default chain.
    @Test func choicesAreTheRenditionAskedForOfTheAPIThatHasIt() {
        var configuration = ListConfiguration()
        #expect(configuration.choices(GiphyAPI()).first == "fixed_height")
        #expect(configuration.choices(KlipyAPI()) == ["sm", "md", "xs", "hd"])
        configuration.rendition = "downsized"
        #expect(configuration.choices(GiphyAPI()).prefix(2) == ["downsized", "fixed_height"])
        #expect(configuration.choices(KlipyAPI()) == ["sm", "md", "xs", "hd"])
        configuration.rendition = "md"
        #expect(configuration.choices(GiphyAPI()).first == "fixed_height")
        #expect(configuration.choices(KlipyAPI()) == ["md", "hd", "sm", "xs"])
    }

    /// Defect 5 of "Hostile input, third pass": an integer past 2^63 or a
    /// `1e400` anywhere in an answer, even in a field nobody reads, lost a
    /// 50-result page as `bad_response: … not a JSON object`, retried at a
    /// call each time. The page is read; only a result whose id the number
    /// was is unusable, and its problem names the number.
    @Test func anAnswerWithAnOutOfRangeNumberLosesOnlyTheItemItMakesUnusable() throws {
        let page = PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 0, limit: 3,
                               rating: "g", lang: "en", total: nil, provider: .klipy, page: 1, perPage: 3)
        func item(_ id: String, _ extra: String = "") -> String {
            #"{"id":\#(id),"title":"t","file":{"sm":{"gif":{"url":"https://static.klipy.com/a.gif","width":220,"height":165,"size":1e400}}}\#(extra)}"#
        }
        let klipy = #"{"result":true,"data":{"data":["# + [item("1149612604962814", #","views":99999999999999999999"#),
            item("99999999999999999999"), item("9007199254740993")].joined(separator: ",") + #"],"current_page":1,"per_page":3,"has_next":true,"total":1e400}}"#
        guard case .page(let answer) = KlipyAPI().interpret(status: 200, body: Array(klipy.utf8), url: "u") else {
            Issue.record("not a page")
            return
        }
        try #require(answer.items.count == 3)
        #expect(answer.outOfRange == ["1e400", "99999999999999999999", "99999999999999999999"])
        let made = answer.items.enumerated().map { KlipyAPI().make(item: $1, index: $0, page: page, pageRecord: nil, choices: ["sm"]) }
        #expect(try made[0].get().string("id") == "1149612604962814")
        #expect(try made[0].get().jsonText("size") == "null", "a size past a double is unknown")
        #expect(try made[2].get().string("id") == "9007199254740993", "ids exact past 2^53")
        guard case .failure(let problem) = made[1] else {
            Issue.record("an id past 64 bits was taken")
            return
        }
        #expect(problem.code == "bad_item")
        #expect(problem.message.contains("past 64-bit integers"), "\(problem.message)")

        let giphy = #"{"data":[{"id":"abc","title":"x","is_sticker":1e400,"images":{"fixed_height":{"url":"https://media.giphy.com/a/200.gif","width":"200","height":"200","size":"99999999999999999999"}}}],"pagination":{"total_count":18446744073709551616,"count":1,"offset":0},"meta":{"status":200,"msg":"OK","response_id":"r"}}"#
        guard case .page(let giphyAnswer) = GiphyAPI().interpret(status: 200, body: Array(giphy.utf8), url: "u") else {
            Issue.record("not a page")
            return
        }
        try #require(giphyAnswer.items.count == 1)
        #expect(giphyAnswer.totalCount == nil)
        let giphyPage = PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 0, limit: 1, rating: "g", lang: "en", total: nil)
        #expect(try GiphyAPI().make(item: giphyAnswer.items[0], index: 0, page: giphyPage, pageRecord: nil, choices: ["fixed_height"]).get().string("id") == "abc")
    }

    /// Defect 5 of "Hostile input, third pass": an answer that cannot be read
    /// at all was retried as transient, spending a call each time, and said
    /// only "not a JSON object". It is not retried, and says jansson's words.
    @Test func anAnswerThatIsNotJSONIsNotRetriedAndSaysWhy() throws {
        for api in [GiphyAPI() as any GIFAPI, KlipyAPI()] {
            guard case .failure(let failure) = api.interpret(status: 200, body: Array("<html>maintenance</html>".utf8), url: "u") else {
                Issue.record("\(api.name): not a failure")
                continue
            }
            #expect(failure.code == "bad_response")
            #expect(!failure.transient, "\(api.name)")
            #expect(failure.message.contains("expected near '<html>'") || failure.message.contains("near '<"), "\(api.name): \(failure.message)")
        }
    }
}
