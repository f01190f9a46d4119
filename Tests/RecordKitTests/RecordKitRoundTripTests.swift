// The kinds RecordKit took on as the stream contract (issue 30): record →
// type → record, byte for byte (the event kinds are RoundEventRoundTripTests').

import RecordKit
import SposureKit
import Testing

@Suite struct RecordKitRoundTripTests {
    @Test(arguments: [
        #"{"kind":"terminal","tty":"/dev/tty","term":"xterm-kitty","term_program":null,"colorterm":"truecolor","name":"kitty(0.35.2)","answered":true,"cols":80,"rows":24,"pixel_width":800,"pixel_height":480,"cell_pixels":"10x20","kitty_keyboard":true,"kitty_graphics":true,"kitty_files":true,"sixel":false,"sixel_colors":null,"sixel_max":null,"window_pixels":"800x480","direct_color":true,"termcap_rgb":null,"outer_name":null,"waited_longer_ms":0,"renderer":"kitty","why":"it draws kitty graphics","advice":null,"symbols":"pixels","mouse":"xterm SGR reports","key_release":true,"keys":"kitty keyboard protocol"}"#,
        #"{"kind":"terminal","tty":"/dev/pts/3","term":"tmux-256color","term_program":"tmux","colorterm":null,"name":null,"answered":false,"cols":null,"rows":null,"pixel_width":null,"pixel_height":null,"cell_pixels":null,"kitty_keyboard":false,"kitty_graphics":false,"kitty_files":false,"sixel":true,"sixel_colors":256,"sixel_max":"1000x1000","window_pixels":null,"direct_color":false,"termcap_rgb":true,"outer_name":"foot","waited_longer_ms":200,"tmux":{"version":"3.4","outer_term":"foot","outer_type":"VT220","passthrough":false,"features":"RGB,sixel"},"renderer":"256","why":"no true colour","advice":"set allow-passthrough on","symbols":"half","mouse":"m","key_release":false,"keys":"k"}"#,
        #"{"kind":"skipped","stage":"giphy-pages list","query":"cartoon spider","section":"cartoon spider","offset":0,"ladder":"spiders","rung":1,"avoided":4,"off_topic":1,"rated":0,"held":2,"dropped":0,"words":{"spider-man":3,"marvel":1}}"#,
        #"{"kind":"skipped","stage":"giphy-pages list","provider":"klipy","section":"trending","offset":50,"avoided":0,"off_topic":0,"rated":2,"held":0,"dropped":0,"words":{}}"#,
        #"{"kind":"status","ladders":{"spiders":{"title":"Spiders","rung":3,"rungs":10,"complete":false,"next_rung":2,"retest":true,"why":"re-test due","query":"spider drawing","due":{"2":"2026-11-21T10:00:00Z"},"rounds":7,"last_round":{"at":"2026-11-27T10:00:00Z","suds_before":6,"peak":null,"suds_after":3}}},"rounds":9,"history_unreadable":true,"problems":["a line is bad"],"rounds_today":1,"exposed_ms_today":61000,"streak_days":2,"provider":"klipy","keys":{"giphy":{"variable":"GIPHY_API_KEY","set":false,"rate":"100/h","calls_left":null},"klipy":{"variable":"KLIPY_API_KEY","set":true,"rate":"100/day","calls_left":97}},"terminal":{"term":"xterm-256color","colorterm":""},"next":"sposure play --ladder spiders"}"#,
        #"{"kind":"status","ladders":{},"rounds":0,"rounds_today":0,"exposed_ms_today":0,"streak_days":0,"provider":null,"keys":{},"terminal":{"term":"","colorterm":""},"next":"sposure demo"}"#,
        #"{"kind":"doctor","playable":false,"checks":[{"area":"keys","ok":false,"mark":"fail","text":"no key is set","fix":"set one"},{"area":"tools","ok":true,"mark":"ok","text":"gif-play 0.7.0","fix":null}]}"#,
        #"{"kind":"doctor","playable":true}"#,
    ])
    func aRecordRoundTripsByteForByte(_ line: String) throws {
        let record = try JSONRecord.parse(line)
        let again = switch record.kind {
        case TerminalRecord.kind: TerminalRecord(record: record).record()
        case StatusRecord.kind: try #require(StatusRecord(record: record)).record()
        case DoctorRecord.kind: try #require(DoctorRecord(record: record)).record()
        default: try #require(SkippedRecord(record: record)).record()
        }
        #expect(again.text == line)
    }
}
