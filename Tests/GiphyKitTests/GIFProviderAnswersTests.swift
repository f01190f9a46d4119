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
}
