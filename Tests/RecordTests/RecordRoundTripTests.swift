// Every record kind of docs/stream-format.md has one type that writes it and
// reads it back (issue 20): record → type → record, byte for byte, for the
// docs' example lines and the other shapes the stages write; and value →
// record → value, equal, for each kind.

import RecordKit
import FoundationEssentials
import GiphyKit
import HistoryKit
import LadderKit
import PlayerKit
import ScoreKit
import SposureKit
import Testing

@Suite struct RecordRoundTripTests {
    /// Every kind's lines, read by its type and written again: the same bytes.
    @Test(arguments: [
        // docs/stream-format.md: a line that is not JSON, and gif-play frames' fault.
        #"{"kind":"error","stage":"fetch-images","code":"bad_json","line":4,"text":"this line is not JSON","error":"not a JSON object ('[' or '{' expected near 'this')"}"#,
        #"{"kind":"error","stage":"gif-play","code":"decode_failed","error":"image 3: invalid LZW code 4011 (at byte 5120)","file":"a.gif","frames":2}"#,
        // A gif record fetch-images gave up on, retried; a page plan's ping failed on.
        #"{"kind":"error","id":"MEaoJYLUpIL31xrE77","title":"a","query":"spiders","section":"spiders","rank":0,"rendition":"fixed_height","url":"https://media3.giphy.com/media/MEaoJYLUpIL31xrE77/200.gif","width":200,"height":200,"frames":42,"size":436527,"cache_key":"giphy:MEaoJYLUpIL31xrE77:fixed_height","stage":"fetch-images","code":"http_503","error":"HTTP 503","attempts":3,"ms":2840}"#,
        #"{"kind":"error","endpoint":"search","query":"spiders","section":"spiders","stage":"giphy-pages plan","code":"unauthorized","error":"the API refused the key (HTTP 401)"}"#,
        // The partial gif record of list's error branch (no rendition), and gif-play's missing file.
        #"{"kind":"error","id":"abc","title":"","query":"spiders","section":"spiders","rank":7,"stage":"giphy-pages list","code":"no_rendition","error":"no GIF rendition"}"#,
        #"{"kind":"error","id":"a.gif","path":"/home/me/a.gif","section":"files","stage":"gif-play","code":"not_found","error":"no such file"}"#,
        // Made again from an error record (list --retry-errors): one record, its fields in their places.
        #"{"kind":"error","provider":"klipy","endpoint":"search","query":"cats","section":"cats","page":2,"per_page":50,"offset":50,"limit":50,"rating":"g","lang":"en","stage":"giphy-pages list","code":"no_key","error":"KLIPY_API_KEY is not set","attempts":2}"#,
        #"{"kind":"page","endpoint":"search","query":"spiders","section":"spiders","offset":0,"limit":50,"rating":"g","lang":"en","total":4210}"#,
        #"{"kind":"page","provider":"klipy","endpoint":"search","query":"spiders","section":"spiders","page":3,"per_page":50,"offset":100,"limit":20,"rating":"g","lang":"en"}"#,
        #"{"kind":"page","endpoint":"trending","section":"trending","offset":450,"limit":50,"rating":"pg-13","lang":"de","total":null}"#,
        #"{"kind":"gif","id":"MEaoJYLUpIL31xrE77","title":"College Basketball Sport GIF by Ohio State Athletics","query":"spiders","section":"spiders","rank":0,"rendition":"fixed_height","url":"https://media3.giphy.com/media/MEaoJYLUpIL31xrE77/200.gif?cid=98362685wta4…&rid=200.gif&ct=g","width":200,"height":200,"frames":42,"size":436527,"cache_key":"giphy:MEaoJYLUpIL31xrE77:fixed_height"}"#,
        #"{"kind":"gif","provider":"klipy","id":"1149612604962814","title":"Adios GIF Master Cat in Mountains","query":"adios","section":"adios","rank":0,"rendition":"sm","url":"https://static.klipy.com/ii/c3a1…/43gEZFgS.gif","width":220,"height":165,"frames":null,"size":143343,"cache_key":"klipy:1149612604962814:sm"}"#,
        // The partial records of list's error branch: no rendition, and no id either.
        #"{"kind":"gif","id":"abc","title":"","query":"spiders","section":"spiders","rank":7}"#,
        #"{"kind":"gif","title":"untitled","section":"trending","rank":12}"#,
        // fetch-images' (docs), a cache hit of a ladder page's GIF, a ladder folder's file, gif-play's command line.
        #"{"kind":"image","id":"ff0000","query":"demo","rank":0,"url":"https://media.example/a.gif","path":"/home/me/.cache/sposure/images/38/388e8c….gif","bytes":512345,"sha256":"ee96fd46…","cached":false,"http_status":200,"ms":84}"#,
        #"{"kind":"image","provider":"klipy","id":"1149612604962814","title":"","query":"spider","section":"spider","rank":3,"rendition":"sm","url":"https://static.klipy.com/a.gif","width":220,"height":165,"frames":null,"size":143343,"cache_key":"klipy:1149612604962814:sm","ladder":"spiders","rung":2,"rung_suds":20,"mix":true,"path":"/c/images/ab/abcd.gif","bytes":143343,"sha256":"00ff","cached":true,"http_status":null,"ms":0}"#,
        #"{"kind":"image","provider":"local","id":"a.gif","section":"mine","path":"/home/me/mine/a.gif","ladder":"spiders","rung":1,"rung_suds":5,"still":true}"#,
        #"{"kind":"image","id":"a.gif","path":"/home/me/a.gif","section":"files"}"#,
        // A gif record whose kind is not first keeps its place.
        #"{"id":"x","kind":"image","url":"file:///g/x.gif","path":"/c/x.gif","bytes":1,"sha256":"aa","cached":false,"http_status":null,"ms":3}"#,
        #"{"kind":"session","event":"start","at":"2026-11-21T10:00:00Z","clock":"real","hold":"mouse","renderer":"truecolor","cols":80,"rows":24,"on_release":"end"}"#,
        #"{"kind":"session","event":"start","clock":"virtual","hold":"script","renderer":"none","cols":80,"rows":24,"on_release":"pause","ladder":"spiders","rung":2,"rung_suds":20}"#,
        #"{"kind":"hold","down_ms":1200,"up_ms":9800}"#,
        #"{"kind":"shown","id":"3o7TKSjRrfIPjeiVyM","section":"spiders","query":"spiders","start_ms":1200,"end_ms":3400,"exposed_ms":2200,"frames":24,"completed":true}"#,
        #"{"kind":"shown","id":"a.gif","section":"mine","start_ms":0,"end_ms":3000,"exposed_ms":3000,"frames":1,"completed":true,"provider":"local","ladder":"spiders","rung":1,"rung_suds":5,"still":true}"#,
        #"{"kind":"stall","start_ms":3400,"end_ms":3520}"#,
        #"{"kind":"session","event":"end","t_ms":9800,"reason":"released"}"#,
        #"{"kind":"rating","when":"before","suds":7,"expect_pct":80}"#,
        #"{"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}"#,
        #"{"kind":"rated","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","rating":8,"t_ms":4200}"#,
        // The ratings file's line (docs: `score` keeps them beside the history).
        #"{"kind":"rated","provider":"giphy","id":"…","rating":8,"ladder":"spiders","rung":2,"at":"…"}"#,
        #"{"kind":"frame","index":0,"delay_ms":100,"width":480,"height":270,"sha256":"8ee2c780…","path":"frames/frame-0000.pam"}"#,
        #"{"kind":"frame","index":7,"delay_ms":20,"width":80,"height":45,"sha256":"00"}"#,
        #"{"kind":"summary","file":"balls.gif","frames":150,"width":480,"height":270,"loop_count":0,"duration_ms":4500,"comment":"made with giflib"}"#,
        #"{"kind":"summary","file":"once.gif","frames":1,"width":1,"height":1,"loop_count":null,"duration_ms":100}"#,
        #"{"kind":"score","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,"gifs_shown":5,"gifs_completed":4,"stalls":1,"stall_ms":120,"errors":1,"error_codes":{"http_404":1},"sections":{"spiders":{"exposed_ms":8480,"gifs_shown":5,"gifs_completed":4}},"points":104,"personal_best":true,"previous_best_ms":6000,"incomplete":false,"reason":"released","duration_ms":9800,"at":"2026-11-21T10:00:00Z","clock":"real","bad_lines":0,"distress_before":7,"distress_after":4}"#,
        #"{"kind":"score","exposed_ms":0,"longest_hold_ms":0,"holds":0,"gifs_shown":0,"gifs_completed":0,"stalls":0,"stall_ms":0,"errors":2,"error_codes":{"http_404":1,"unknown":1},"sections":{},"points":0,"personal_best":null,"previous_best_ms":null,"incomplete":true,"reason":null,"duration_ms":300,"at":null,"clock":null,"bad_lines":1,"distress_before":null,"distress_after":null}"#,
        #"{"kind":"score","exposed_ms":61000,"longest_hold_ms":40000,"holds":2,"gifs_shown":6,"gifs_completed":5,"stalls":0,"stall_ms":0,"errors":0,"error_codes":{},"sections":{"spider":{"exposed_ms":61000,"gifs_shown":6,"gifs_completed":5}},"points":879,"personal_best":false,"previous_best_ms":70000,"incomplete":false,"reason":"released","duration_ms":70000,"at":"2026-11-22T10:00:00Z","clock":"real","bad_lines":0,"distress_before":6,"distress_after":3,"ladder":{"name":"spiders","rung":2,"rung_suds":20,"retest":false,"step":"up","now_on":3,"next_rung":3,"next_retest":false,"why":"the last 2 counted rounds on rung 2 ended calm: step up"},"ratings":{"suds_before":6,"expect_pct":80,"peak":7,"suds_after":3,"happened":false},"gifs_rated":2}"#,
        #"{"kind":"round","at":"2026-11-21T10:00:00Z","exposed_ms":8480,"longest_hold_ms":8600,"holds":1,"gifs_shown":5,"gifs_completed":4,"stalls":1,"stall_ms":120,"errors":1,"points":104,"incomplete":false,"duration_ms":9800,"sections":{"spiders":8480},"distress_before":7,"distress_after":4}"#,
        #"{"kind":"round","at":"2026-11-22T10:00:00Z","exposed_ms":61000,"longest_hold_ms":40000,"holds":2,"gifs_shown":6,"gifs_completed":5,"stalls":0,"stall_ms":0,"errors":0,"points":879,"incomplete":false,"duration_ms":70000,"sections":{"spider":61000},"distress_before":6,"distress_after":3,"ladder":"spiders","rung":2,"rung_suds":20,"retest":true,"reason":"released","expect_pct":80,"peak":7,"happened":false}"#,
        #"{"kind":"history","rounds":3,"total_exposed_ms":60000,"average_exposed_ms":20000,"best":{"round":3,"at":"2026-11-23T10:00:00Z","exposed_ms":30000,"points":305},"trend":{"window":1,"recent_mean_ms":30000,"previous_mean_ms":20000,"change_ms":10000,"direction":"up"},"distress":{"rated_rounds":3,"mean_before":7.0,"mean_after":4.3,"mean_drop":2.7,"window":1,"early_before":8.0,"recent_before":6.0,"falling":true},"first_at":"2026-11-21T10:00:00Z","last_at":"2026-11-23T10:00:00Z"}"#,
        #"{"kind":"history","rounds":0,"total_exposed_ms":0,"average_exposed_ms":0,"best":null,"trend":null,"distress":null,"first_at":null,"last_at":null}"#,
        // Means rounded to tenths whose drop is not the drop of the rounded means (6.7 - 4.3), and tied early and recent means.
        #"{"kind":"history","rounds":1,"total_exposed_ms":5,"average_exposed_ms":5,"best":{"round":1,"at":"x","exposed_ms":5,"points":0},"trend":null,"distress":{"rated_rounds":1,"mean_before":6.7,"mean_after":4.3,"mean_drop":2.3,"window":0,"early_before":6.0,"recent_before":6.0,"falling":true},"first_at":"x","last_at":"x"}"#,
        #"{"kind":"ladder","name":"spiders","title":"Spiders","source":"built-in","rung":2,"complete":false,"next_rung":1,"next_retest":true,"why":"re-test of rung 1, mastered 7 days ago","rungs":[{"rung":1,"label":"spider 1","suds":10,"still":true,"rounds":2,"best_exposed_ms":70000,"last_distress":3,"mastered_on":"2026-11-21T10:00:00Z","retest_due":"2026-11-28T10:00:00Z"},{"rung":2,"label":"spider 2","suds":20,"still":false,"rounds":1,"best_exposed_ms":30000,"last_distress":6,"mastered_on":null,"retest_due":null}]}"#,
        #"{"kind":"ladder","name":"mine","title":"Mine","source":"/home/me/.config/sposure/ladders/mine.json","rung":8,"complete":true,"next_rung":8,"next_retest":false,"why":"the ladder is climbed","rungs":[]}"#,
        #"{"kind":"budget","provider":"giphy","used":3.5,"at":1795255200.25}"#,
        #"{"kind":"budget","provider":"klipy","used":1.0,"at":1795255200.0}"#,
        // docs/ladders.md
        #"{"kind":"ladders","folder":"…/ladders","ladders":{"spiders":"built-in","mine":"…/ladders/mine.json"}}"#,
    ])
    func aRecordRoundTripsByteForByte(_ line: String) throws {
        let record = try JSONRecord.parse(line)
        let again: JSONRecord?
        switch record.kind {
        case "error": again = ErrorRecord(record: record)?.record()
        case "page": again = try PageRequest(record: record).record()
        case "gif": again = GIFRecord(record: record)?.record()
        case "image": again = ImageRecord(record: record)?.record()
        case "frame": again = FrameRecord(record: record)?.record()
        case "summary": again = SummaryRecord(record: record)?.record()
        case "score": again = ScoredRound(record: record)?.scoreRecord()
        case "round": again = HistoryEntry(record: record)?.record()
        case "history": again = LifetimeStats(record: record)?.record()
        case "ladder": again = LadderTable(record: record)?.record()
        case "ladders": again = LadderList(record: record)?.record()
        case "budget": again = BudgetRecord(record: record)?.record()
        default:
            let (event, warning) = RoundEvent.read(record)
            #expect(warning == nil)
            again = event?.record
        }
        #expect(again?.text == line)
    }

    // MARK: error

    @Test func anErrorValueRoundTripsThroughItsRecord() throws {
        let gif = try JSONRecord.parse(#"{"kind":"gif","id":"a","url":"https://media.example/a.gif","cache_key":"giphy:a:fixed_height"}"#)
        var fetched = ErrorRecord(failed: gif, stage: "fetch-images", code: "http_404", message: "HTTP 404")
        fetched.attempts = 2
        fetched.ms = 15
        #expect(fetched.record().text
            == #"{"kind":"error","id":"a","url":"https://media.example/a.gif","cache_key":"giphy:a:fixed_height","stage":"fetch-images","code":"http_404","error":"HTTP 404","attempts":2,"ms":15}"#)
        #expect(gif.kind == "gif", "the failed record is left as it was")
        let bad = ErrorRecord(badLine: BadLine(line: 4, bytes: Array("this line is not JSON".utf8), reason: "not a JSON object"), stage: "gif-play")
        var frames = ErrorRecord(stage: "gif-play", code: "decode_failed", message: "image 3: truncated")
        frames.file = "a.gif"
        frames.frames = 2
        for error in [fetched, bad, frames] {
            let read = try #require(ErrorRecord(record: error.record()))
            #expect(read == error)
            #expect((read.stage, read.code, read.message) == (error.stage, error.code, error.message))
            #expect((read.line, read.text, read.attempts, read.ms) == (error.line, error.text, error.attempts, error.ms))
            #expect((read.file, read.frames) == (error.file, error.frames))
        }
    }

    @Test func writingOverARecordChangesItInPlace() throws {
        let page = try JSONRecord.parse(#"{"kind":"page","endpoint":"trending","section":"trending","stage":"x","offset":0}"#)
        ErrorRecord(stage: "giphy-pages list", code: "offset_cap", message: "past the cap").write(over: page)
        #expect(page.text == #"{"kind":"error","endpoint":"trending","section":"trending","stage":"giphy-pages list","offset":0,"code":"offset_cap","error":"past the cap"}"#)
    }

    @Test func aRecordOfAnotherKindOrWithoutItsFieldsIsNoError() throws {
        for line in [#"{"kind":"gif","stage":"a","code":"b","error":"c"}"#, #"{"kind":"error","code":"http_404"}"#] {
            #expect(ErrorRecord(record: try JSONRecord.parse(line)) == nil)
        }
    }

    // MARK: page

    @Test func aPageValueRoundTripsThroughItsRecord() throws {
        let pages = [
            PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 100, limit: 50, rating: "g", lang: "en", total: 4210),
            PageRequest(endpoint: .trending, query: nil, section: "trending", offset: 0, limit: 25, rating: "r", lang: "en", total: nil),
            PageRequest(endpoint: .search, query: "adios", section: "adios", offset: 50, limit: 20, rating: "pg", lang: "es", total: nil,
                        provider: .klipy, page: 2, perPage: 50),
        ]
        for page in pages {
            #expect(try PageRequest(record: page.record()) == page, "\(page.record().text)")
        }
    }

    // MARK: gif

    @Test func aGIFValueRoundTripsThroughItsRecord() throws {
        let page = PageRequest(endpoint: .search, query: "spiders", section: "spiders", offset: 50, limit: 50, rating: "g", lang: "en", total: nil)
        let rendition = GIFRecord.Rendition(name: "fixed_height", url: "https://media.example/a.gif", width: 356, height: 200,
                                            frames: nil, size: 512_345, cacheKey: "giphy:a:fixed_height")
        for gif in [GIFRecord(provider: .giphy, id: "a", title: "A GIF", page: page, index: 3, chosen: rendition),
                    GIFRecord(provider: .klipy, id: "9007199254740993", title: "", page: page, index: 0, chosen: rendition),
                    GIFRecord(provider: .giphy, id: nil, title: "no id", page: page, index: 1, chosen: nil)] {
            #expect(GIFRecord(record: gif.record()) == gif, "\(gif.record().text)")
        }
    }

    // MARK: image

    @Test func theThreeOriginsWriteTheirShapes() throws {
        let gif = try JSONRecord.parse(#"{"kind":"gif","id":"ff0000","query":"demo","rank":0,"url":"https://media.example/a.gif"}"#)
        let fetched = ImageRecord(of: gif, path: "/c/images/38/388e.gif",
                                  fetch: .init(bytes: 512_345, sha256: "ee96", cached: false, httpStatus: 200, ms: 84))
        #expect(fetched.record().text
            == #"{"kind":"image","id":"ff0000","query":"demo","rank":0,"url":"https://media.example/a.gif","path":"/c/images/38/388e.gif","bytes":512345,"sha256":"ee96","cached":false,"http_status":200,"ms":84}"#)
        #expect(gif.kind == "gif", "the gif record is left as it was")
        #expect(ImageRecord(folder: "mine", file: "a.gif", path: "/home/me/mine/a.gif").record().text
            == #"{"kind":"image","provider":"local","id":"a.gif","section":"mine","path":"/home/me/mine/a.gif"}"#)
        #expect(ImageRecord(commandLine: "a.gif", path: "/home/me/a.gif").record().text
            == #"{"kind":"image","id":"a.gif","path":"/home/me/a.gif","section":"files"}"#)
    }

    @Test func anImageValueRoundTripsThroughItsRecord() throws {
        let gif = try JSONRecord.parse(#"{"kind":"gif","id":"a","section":"s","url":"https://media.example/a.gif"}"#)
        let images = [
            ImageRecord(of: gif, path: "/c/a.gif", fetch: .init(bytes: 9, sha256: "ab", cached: true, httpStatus: nil, ms: 0)),
            ImageRecord(folder: "mine", file: "b.gif", path: "/m/b.gif"),
            ImageRecord(commandLine: "c.gif", path: "/w/c.gif"),
        ]
        for image in images {
            let read = try #require(ImageRecord(record: image.record()))
            #expect(read == image)
            #expect(read.path == image.path && read.fetch == image.fetch && read.id == image.id && read.section == image.section)
        }
        #expect(images.map(\.provider) == [nil, "local", nil])
    }

    // MARK: player events

    @Test func anEventValueRoundTripsThroughItsRecord() {
        let events: [RoundEvent] = [
            .sessionStart(.init(at: "2026-11-21T10:00:00Z", clock: "real", hold: "mouse", renderer: "256", cols: 120, rows: 40, onRelease: "end")),
            .hold(downMs: 10, upMs: 900),
            .shown(.init(id: "g", section: "spiders", query: "spiders", startMs: 10, endMs: 400, exposedMs: 390, frames: 12, completed: true)),
            .stall(startMs: 400, endMs: 460),
            .sessionEnd(atMs: 900, reason: .released),
            .rating(RoundRating(when: .before, suds: 6, expectPct: 70)),
            .rated(GIFRating(provider: "klipy", id: "9007199254740993", rating: 4, atMs: 300)),
        ]
        for event in events {
            #expect(RoundEvent.read(event.record).event == event, "\(event.record.text)")
        }
    }

    @Test func aRatingsFileLineRoundTripsThroughItsValue() throws {
        let rating = GIFRating(provider: "giphy", id: "3o7", rating: 8, ladder: "spiders", rung: 2, at: "2026-11-21T10:00:00Z")
        #expect(GIFRating(record: rating.record()) == rating)
    }

    // MARK: frame, summary

    @Test func frameAndSummaryValuesRoundTripThroughTheirRecords() {
        for frame in [FrameRecord(index: 3, delayMs: 70, width: 10, height: 20, sha256: "ff", path: "out/frame-0003.ppm"),
                      FrameRecord(index: 0, delayMs: 100, width: 1, height: 1, sha256: "00")] {
            #expect(FrameRecord(record: frame.record()) == frame)
        }
        for summary in [SummaryRecord(file: "a.gif", frames: 2, width: 3, height: 4, loopCount: 5, durationMs: 6, comment: "é"),
                        SummaryRecord(file: "b.gif", frames: 0, width: 1, height: 1, loopCount: nil, durationMs: 0)] {
            #expect(SummaryRecord(record: summary.record()) == summary)
        }
    }

    // MARK: score

    @Test func aScoreValueRoundTripsThroughItsRecord() throws {
        var round = Round()
        round.at = "2026-11-22T10:00:00Z"
        round.clock = "real"
        round.started = true
        round.ended = true
        round.endReason = "released"
        round.durationMs = 70_000
        round.totals = RoundTotals(exposedMs: 61_000, longestHoldMs: 40_000, holds: 2, gifsShown: 6, gifsCompleted: 5, stalls: 1, stallMs: 80)
        round.errorCodes = ["http_404": 1, "not_gif": 2]
        round.sections = [SectionExposure(name: "spider", exposedMs: 60_000, gifsShown: 5, gifsCompleted: 5),
                          SectionExposure(name: "tarantula", exposedMs: 1000, gifsShown: 1)]
        round.badLines = 1
        round.ladder = LadderTag(ladder: "spiders", rung: 2, rungSuds: 20, retest: true)
        round.ratings = RoundRatings(sudsBefore: 6, expectPct: 80, peak: 7, sudsAfter: 3, happened: false)
        var scored = ScoredRound(round: round, distress: Distress(before: 6, after: 3))
        scored.judge(against: 70_000)
        scored.ladderOutcome = LadderOutcome(rungBefore: 2, rung: 1, nextRung: 1, nextRetest: false, why: "fear came back", step: .back)
        scored.gifsRated = 2
        #expect(ScoredRound(record: scored.scoreRecord()) == scored, "\(scored.scoreRecord().text)")

        var plain = Round()
        plain.totals = RoundTotals(exposedMs: 300)
        plain.durationMs = 300
        #expect(ScoredRound(record: ScoredRound(round: plain).scoreRecord()) == ScoredRound(round: plain))
    }

    // MARK: round (the history file's line)

    @Test func aRoundValueRoundTripsThroughItsRecord() {
        let entries = [
            HistoryEntry(at: "2026-11-21T10:00:00Z", exposedMs: 8480, longestHoldMs: 8600, holds: 1, gifsShown: 5, gifsCompleted: 4,
                         errors: 1, durationMs: 9800, sections: [.init(name: "spiders", exposedMs: 8480)], distress: Distress(before: 7, after: 4)),
            HistoryEntry(at: "2026-11-22T10:00:00Z", exposedMs: 61_000, holds: 2, ladder: LadderTag(ladder: "spiders", rung: 2, rungSuds: 20),
                         ratings: RoundRatings(sudsBefore: 6, peak: 7), reason: "quit"),
        ]
        for entry in entries {
            #expect(HistoryEntry(record: entry.record()) == entry, "\(entry.record().text)")
        }
    }

    // MARK: history

    @Test func aHistoryValueRoundTripsThroughItsRecord() throws {
        let ratings = [(7, 4), (8, 5), (6, 3)]
        var entries: [HistoryEntry] = []
        for (index, (before, after)) in ratings.enumerated() {
            entries.append(HistoryEntry(at: "2026-11-2\(index + 1)T10:00:00Z", exposedMs: (index + 1) * 10_000,
                                        distress: Distress(before: before, after: after)))
        }
        var stats = LifetimeStats(entries: entries)
        stats.exposures = []  // the sparkline's, not in the record
        #expect(LifetimeStats(record: stats.record()) == stats, "\(stats.record().text)")
        var none = LifetimeStats(entries: [])
        none.exposures = []
        #expect(LifetimeStats(record: none.record()) == none)
    }

    // MARK: ladder, ladders

    @Test func aLadderValueRoundTripsThroughItsRecord() throws {
        let ladder = Ladder(name: "spiders", title: "Spiders", rungs: (1...8).map { Rung(queries: ["spider \($0)"], suds: $0 * 10, still: $0 == 1) })
        let table = LadderTable(ladder: ladder, source: "built-in", entries: [], now: try #require(Timestamp.date("2026-11-23T10:00:00Z")))
        #expect(LadderTable(record: table.record()) == table)

        // With a history: what the record holds comes back (the ladder's rules and its rounds are not in it).
        let history = [1, 1, 2].enumerated().map { index, rung in
            HistoryEntry(at: "2026-11-2\(index)T10:00:00Z", exposedMs: 61_000, holds: 1,
                         ladder: LadderTag(ladder: "spiders", rung: rung, rungSuds: rung * 10),
                         ratings: RoundRatings(sudsBefore: 6, peak: 7, sudsAfter: 2), reason: "released")
        }
        let played = LadderTable(ladder: ladder, source: "built-in", entries: history, now: try #require(Timestamp.date("2026-11-29T10:00:00Z")))
        let read = try #require(LadderTable(record: played.record()))
        #expect(read.rows == played.rows && read.next == played.next && read.progress.rung == played.progress.rung)
        #expect(read.record().text == played.record().text)
    }

    @Test func aLaddersValueRoundTripsThroughItsRecord() {
        let list = LadderList(folder: "/home/me/.config/sposure/ladders",
                              ladders: [("dogs", nil), ("kind", "/home/me/.config/sposure/ladders/kind.json"), ("spiders", nil)])
        #expect(LadderList(record: list.record()) == list)
    }

    // MARK: budget

    @Test func aBudgetValueRoundTripsThroughItsRecord() {
        for budget in [BudgetRecord(provider: "giphy", used: 99.000_001, at: 1_795_255_200.123),
                       BudgetRecord(provider: "klipy", used: 0, at: 0)] {
            #expect(BudgetRecord(record: budget.record()) == budget)
        }
        #expect(BudgetRecord(record: BudgetRecord(provider: "giphy", used: -1, at: 0).record()) == nil)
    }
}
