import FoundationEssentials
@testable import PlayerKit
import Testing

/// The sixel bytes of small pictures, exactly: the encoder's speed-ups
/// (issue 29, pictures at the cells' size) must send what it sent before.
@Suite struct SixelEncodingTests {
    /// 12 × 8 pixels: a red left half, a blue right half, a green square in
    /// the blue (rows 2–5, columns 8–9), and a white pixel at (1, 7).
    func picture(square: Int = 8) -> CellPicture {
        var rgb = [UInt8](repeating: 0, count: 12 * 8 * 3)
        for y in 0..<8 {
            for x in 0..<12 {
                var color: [UInt8] = x < 6 ? [200, 0, 0] : [0, 0, 200]
                if x >= square && x < square + 2 && y >= 2 && y < 6 { color = [0, 200, 0] }
                if x == 1 && y == 7 { color = [255, 255, 255] }
                rgb.replaceSubrange((y * 12 + x) * 3..<((y * 12 + x) * 3 + 3), with: color)
            }
        }
        var picture = CellPicture(width: 12, height: 8, rgb: rgb)
        picture.tag = FrameTag(gif: 1, frame: square)
        return picture
    }

    func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "\\e")
    }

    @Test func aPictureIsRunLengthCodedBandByBandWithItsColoursPacked() {
        var renderer = SixelRenderer()
        renderer.cellHeight = 4
        var out: [UInt8] = []
        renderer.render(picture(), row: 2, col: 3, into: &out)
        #expect(text(out) == #"\e[2;3H\eP0;1;0q"1;1;12;8#0;2;78;0;0#1;2;0;0;78#2;2;0;78;0#3;2;100;100;100#0!6~#1~~BB~~$#2!8?{{-#0B@!4B#1!6B$#3?A-\e\"#)
    }

    @Test func aChangeSendsTheCellRowsFromItsFirstRowToItsLastOnly() {
        var renderer = SixelRenderer()
        renderer.cellHeight = 4
        var out: [UInt8] = []
        renderer.render(picture(), row: 2, col: 3, into: &out)
        out = []
        renderer.render(picture(square: 9), row: 2, col: 3, into: &out)
        #expect(text(out) == #"\e[2;3H\eP0;1;0q"1;1;12;6#1;2;0;0;78#2;2;0;78;0#1!8?{#2?{-\e\"#)
    }

    @Test func longFlatRunsAreRepeatCounts() {
        var renderer = SixelRenderer()
        var rgb = [UInt8](repeating: 0, count: 100 * 12 * 3)
        for pixel in 0..<(100 * 12) where pixel % 100 >= 30 { rgb[pixel * 3 + 1] = 255 }
        var out: [UInt8] = []
        renderer.render(CellPicture(width: 100, height: 12, rgb: rgb), row: 1, col: 1, into: &out)
        #expect(text(out) == #"\e[1;1H\eP0;1;0q"1;1;100;12#0;2;0;100;0#1;2;0;0;0#1!30~#0!70~-#1!30~#0!70~-\e\"#)
    }
}
