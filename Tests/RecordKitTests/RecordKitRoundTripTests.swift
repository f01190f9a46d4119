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
    ])
    func aRecordRoundTripsByteForByte(_ line: String) throws {
        let record = try JSONRecord.parse(line)
        let again = record.kind == TerminalRecord.kind ? TerminalRecord(record: record).record() : try #require(SkippedRecord(record: record)).record()
        #expect(again.text == line)
    }
}
