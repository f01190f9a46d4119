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
        #expect(GIFProvider.klipy.kept(answer, page: page).count == 3)
        #expect(GIFProvider.giphy.kept(answer, page: page).count == 5)
    }

    @Test func choicesAreRenditionsOrSizes() {
        var configuration = ListConfiguration()
        configuration.renditions = ["downsized", "original"]
        configuration.klipySizes = ["md", "sm"]
        #expect(GIFProvider.giphy.choices(configuration) == ["downsized", "original"])
        #expect(GIFProvider.klipy.choices(configuration) == ["md", "sm"])
    }
}
