import RecordKit
import Foundation
import LadderKit
import HistoryKit
import SposureKit
import Testing

struct GIFRatingFileTests {
    @Test func keepsTheLatestRatingOfAGIF() throws {
        let file = GIFRatingFile(path: temporaryFolder() + "/data/ratings.ndjson")
        #expect(try file.latest().isEmpty)
        try file.append([GIFRating(provider: "giphy", id: "a", rating: 3, ladder: "spiders", rung: 2),
                         GIFRating(provider: "klipy", id: "a", rating: 9, ladder: "spiders", rung: 2)])
        try file.append([GIFRating(provider: "giphy", id: "a", rating: 7, ladder: "spiders", rung: 3),
                         GIFRating(provider: "giphy", id: "b", rating: 9, ladder: "dogs", rung: 1)])
        let latest = try file.latest()
        #expect(latest["giphy:a"]?.rating == 7)
        #expect(latest["klipy:a"]?.rating == 9)
        #expect(try file.latest(ladder: "spiders")["giphy:b"] == nil)
    }

    /// Regression: the ratings file was appended without the history's care: a
    /// line torn by a crash glued the next rating onto it, losing both.
    @Test func aTornLastLineIsRemovedBeforeTheNextRating() throws {
        let path = temporaryFolder() + "/data/ratings.ndjson"
        let file = GIFRatingFile(path: path)
        try file.append([GIFRating(provider: "giphy", id: "a", rating: 3)])
        let handle = open(path, O_WRONLY | O_APPEND)
        #expect(writeAll(handle, Array(#"{"kind":"rated","id":"to"#.utf8)) == nil)
        close(handle)
        try file.append([GIFRating(provider: "giphy", id: "b", rating: 8)])
        let latest = try file.latest()
        #expect(latest["giphy:a"]?.rating == 3)
        #expect(latest["giphy:b"]?.rating == 8)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(#""id":"to"#), "the torn line is gone: \(text)")
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 2)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func wellAboveIsThreeOverTheRung() {
        #expect(GIFRating(provider: "giphy", id: "a", rating: 7).isWellAbove(rungSuds: 40))
        #expect(!GIFRating(provider: "giphy", id: "a", rating: 6).isWellAbove(rungSuds: 40))
        #expect(GIFRating(provider: "giphy", id: "a", rating: 9).isWellAbove(rungSuds: 55))
        #expect(!GIFRating(provider: "giphy", id: "a", rating: 8).isWellAbove(rungSuds: 55))
    }

    @Test func readsThePlayersEvent() throws {
        let record = try JSONRecord.parse("{\"kind\":\"rated\",\"id\":\"x\",\"rating\":8,\"t_ms\":1200}")
        // The player's event keeps what it says: no provider (a Giphy GIF's record names none), its time.
        let rating = try #require(GIFRating(record: record))
        #expect(rating == GIFRating(provider: nil, id: "x", rating: 8, atMs: 1200))
        #expect(rating.source == "giphy")
        #expect(GIFRating(record: try JSONRecord.parse("{\"kind\":\"rated\",\"id\":\"x\",\"rating\":10}")) == nil)
    }
}
