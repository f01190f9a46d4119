// Every event kind has one type that writes it and reads it back (issue 20):
// record → RoundEvent → record, byte for byte, for the records gif-play
// writes; and what the reader refuses, with the words score says.

import RecordKit
import SposureKit
import Testing

@Suite struct RoundEventRoundTripTests {
    @Test(arguments: [
        #"{"kind":"session","event":"start","at":"2026-11-21T10:00:00Z","clock":"real","hold":"mouse","renderer":"truecolor","cols":80,"rows":24,"on_release":"end"}"#,
        #"{"kind":"session","event":"start","clock":"virtual","hold":"script","renderer":"none","cols":80,"rows":24,"on_release":"pause"}"#,
        #"{"kind":"session","event":"end","t_ms":9800,"reason":"released"}"#,
        #"{"kind":"session","event":"end","t_ms":120,"reason":"a-reason-of-a-later-version"}"#,
        #"{"kind":"hold","down_ms":1200,"up_ms":9800}"#,
        #"{"kind":"stall","start_ms":3400,"end_ms":3520}"#,
        #"{"kind":"shown","id":"3o7TKSjRrfIPjeiVyM","section":"spiders","query":"spiders","start_ms":1200,"end_ms":3400,"exposed_ms":2200,"frames":24,"completed":true}"#,
        #"{"kind":"shown","id":"a","section":"","start_ms":0,"end_ms":10,"exposed_ms":10,"frames":1,"completed":false}"#,
        #"{"kind":"shown","id":"9007199254740993","section":"spiders","query":"spider","start_ms":0,"end_ms":900,"exposed_ms":900,"frames":9,"completed":true,"provider":"klipy","ladder":"spiders","rung":2,"rung_suds":20,"retest":true}"#,
        #"{"kind":"rated","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","rating":8,"t_ms":4200}"#,
        #"{"kind":"rated","id":"x","rating":0,"t_ms":1}"#,
        #"{"kind":"rated","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","rating":8,"ladder":"spiders","rung":4,"at":"2026-11-21T10:00:00Z"}"#,
        #"{"kind":"rating","when":"before","suds":7,"expect_pct":80}"#,
        #"{"kind":"rating","when":"after","peak":8,"suds":4,"happened":false}"#,
        #"{"kind":"shown","id":"k","section":"spiders","start_ms":0,"end_ms":9,"exposed_ms":9,"frames":1,"completed":true,"provider":"klipy","hash":"0123456789abcdef"}"#,
        #"{"kind":"skipped","reason":"same_clip","id":"b","like":"a","t_ms":2200,"hash":"f0e1d2c3b4a59687"}"#,
        #"{"kind":"skipped","reason":"same_clip","provider":"klipy","id":"7","t_ms":0}"#,
        #"{"kind":"off_topic","provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","title":"Spider-Man swings","t_ms":4200,"query":"cartoon spider"}"#,
        #"{"kind":"off_topic","id":"x","t_ms":1}"#,
    ])
    func anEventRecordRoundTripsByteForByte(_ line: String) throws {
        let (event, warning) = RoundEvent.read(try JSONRecord.parse(line))
        #expect(warning == nil)
        let read = try #require(event)
        #expect(read.record.text == line)
    }

    @Test func aValueRoundTripsThroughItsRecord() throws {
        let events: [RoundEvent] = [
            .sessionStart(.init(at: nil, clock: "virtual", hold: "always", renderer: "none", cols: 80, rows: 24, onRelease: "end")),
            .hold(downMs: 0, upMs: 5),
            .stall(startMs: 1, endMs: 2),
            .shown(.init(id: "g", section: "s", query: nil, startMs: 0, endMs: 4, exposedMs: 4, frames: 2, completed: false,
                         ladder: LadderTag(ladder: "dogs", rung: 1, rungSuds: 10), provider: "giphy")),
            .sessionEnd(atMs: 9, reason: .timeLimit),
            .rated(.init(provider: nil, id: "g", rating: 9, atMs: 3)),
            .rating(RoundRating(when: .after, suds: 2, peak: 5, happened: true)),
        ]
        for event in events {
            #expect(RoundEvent.read(event.record).event == event, "\(event.record.text)")
        }
    }

    @Test(arguments: [
        (#"{"kind":"hold","down_ms":5,"up_ms":4}"#, "a hold record needs whole down_ms <= up_ms, each 0 to a year; skipped"),
        (#"{"kind":"stall","start_ms":-1,"end_ms":4}"#, "a stall record needs whole start_ms <= end_ms, each 0 to a year; skipped"),
        (#"{"kind":"shown","id":"a","exposed_ms":"2200"}"#, "a shown record needs a whole exposed_ms from 0 to a year; skipped"),
        (#"{"kind":"session","event":"middle"}"#, "a session record whose event is neither start nor end, skipped"),
        (#"{"kind":"session","event":"end","t_ms":99999999999999}"#, "a session end whose t_ms is outside 0 to a year, skipped"),
        (#"{"kind":"rated","id":"a","rating":10}"#, "a rated record without a string id and a rating 0–9, skipped"),
        (#"{"kind":"rating","when":"during"}"#, "a rating record whose when is neither before nor after, skipped"),
        (#"{"kind":"skipped","reason":"same_clip","t_ms":1}"#, "a skipped record needs a string id and a whole t_ms from 0 to a year; skipped"),
        (#"{"kind":"skipped","id":"a","t_ms":-5}"#, "a skipped record needs a string id and a whole t_ms from 0 to a year; skipped"),
        (#"{"kind":"off_topic","id":7,"t_ms":1}"#, "an off_topic record without a string id, skipped"),
        (#"{"kind":"off_topic","id":"a","t_ms":99999999999999}"#, "an off_topic record whose t_ms is outside 0 to a year, skipped"),
    ])
    func aMalformedEventIsSkippedWithItsReason(_ line: String, _ reason: String) throws {
        let (event, warning) = RoundEvent.read(try JSONRecord.parse(line))
        #expect(event == nil)
        #expect(warning == reason)
    }

    @Test func aRecordOfAnotherKindIsNoEventAndNoWarning() throws {
        for line in [#"{"kind":"gif","id":"a"}"#, #"{"kind":"error","code":"http_404"}"#, #"{"id":"no kind"}"#] {
            let (event, warning) = RoundEvent.read(try JSONRecord.parse(line))
            #expect(event == nil && warning == nil)
        }
    }
}

@Suite struct ClipHashFieldTests {
    /// A hash that is not 16 hex digits is left out, with the reason; the GIF still counts.
    @Test(arguments: [
        (#""hash":"0123""#, #"hash "0123" is not 16 hex digits"#),
        (#""hash":"0123456789abcdeg""#, #"hash "0123456789abcdeg" is not 16 hex digits"#),
        (#""hash":81985529216486895"#, "hash 81985529216486895 is not 16 hex digits"),
        (#""hash":null"#, "hash null is not 16 hex digits"),
    ])
    func aBadHashIsLeftOutAndTheGIFCounts(_ field: String, _ problem: String) throws {
        let line = #"{"kind":"shown","id":"a","section":"s","start_ms":0,"end_ms":5,"exposed_ms":5,"frames":1,"completed":true,"# + field + "}"
        let (event, warning) = RoundEvent.read(try JSONRecord.parse(line))
        guard case .shown(let shown) = try #require(event) else { Issue.record("not a shown"); return }
        #expect(shown.hash == nil && shown.exposedMs == 5)
        #expect(warning == "a shown record's \(problem); the GIF is counted without it")
        let skipped = #"{"kind":"skipped","reason":"same_clip","id":"b","t_ms":3,"# + field + "}"
        let read = RoundEvent.read(try JSONRecord.parse(skipped))
        #expect(read.event == .skipped(.init(reason: "same_clip", id: "b", atMs: 3)))
        #expect(read.warning == "a skipped record's \(problem); left out")
    }

    @Test func anUpperCaseHashIsReadInLowerCase() throws {
        let line = #"{"kind":"shown","id":"a","section":"s","start_ms":0,"end_ms":5,"exposed_ms":5,"frames":1,"completed":true,"hash":"0123456789ABCDEF"}"#
        guard case .shown(let shown) = try #require(RoundEvent.read(try JSONRecord.parse(line)).event) else { return }
        #expect(shown.hash == "0123456789abcdef")
    }
}
