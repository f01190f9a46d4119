import Testing
@testable import PlayerKit

@Suite struct BlockRendererTests {
    /// A 2×2-pixel picture: one cell row of two cells.
    func picture(_ pixels: [(UInt8, UInt8, UInt8)]) -> CellPicture {
        CellPicture(width: 2, height: 2, rgb: pixels.flatMap { [$0.0, $0.1, $0.2] })
    }

    @Test func drawsTopAndBottomPixelsAsForegroundAndBackground() {
        var renderer = BlockRenderer(truecolor: true)
        let out = renderer.render(picture([(255, 0, 0), (0, 0, 0), (0, 0, 254), (0, 0, 0)]), row: 3, col: 5)
        let text = String(decoding: out, as: UTF8.self)
        // Red is palette colour 196: the shorter code says the same. Black is
        // 16, which base16 themes change: written in full.
        #expect(text == "\u{1B}[3;5H\u{1B}[38;5;196;48;2;0;0;254m▀\u{1B}[48;2;0;0;0m ")
    }

    @Test func redrawsOnlyTheCellsThatChanged() {
        var renderer = BlockRenderer(truecolor: true)
        _ = renderer.render(picture([(1, 1, 1), (2, 2, 2), (1, 1, 1), (2, 2, 2)]), row: 1, col: 1)
        let same = renderer.render(picture([(1, 1, 1), (2, 2, 2), (1, 1, 1), (2, 2, 2)]), row: 1, col: 1)
        #expect(same.isEmpty, "nothing changed: nothing is written")
        let second = renderer.render(picture([(1, 1, 1), (9, 9, 9), (1, 1, 1), (9, 9, 9)]), row: 1, col: 1)
        #expect(String(decoding: second, as: UTF8.self) == "\u{1B}[1;2H\u{1B}[48;2;9;9;9m ")
    }

    @Test func movesForwardOnARowInsteadOfJumping() {
        var renderer = BlockRenderer(truecolor: true)
        let wide = CellPicture(width: 4, height: 2, rgb: Array(repeating: 0, count: 24))
        _ = renderer.render(wide, row: 1, col: 1)
        var changed = wide
        changed.rgb[0..<3] = [7, 7, 7]  // cell 0, top
        changed.rgb[9..<12] = [7, 7, 7]  // cell 3, top
        let out = String(decoding: renderer.render(changed, row: 1, col: 1), as: UTF8.self)
        // The colours set by the first frame are still known: black needs no code.
        #expect(out == "\u{1B}[1;1H\u{1B}[38;2;7;7;7m▀\u{1B}[2C▀")
    }

    @Test func goesToTheNextRowTheShortestWay() {
        // Down a row and one back: LF (raw output: same column) and a backspace.
        var renderer = BlockRenderer(truecolor: true)
        let tall = CellPicture(width: 2, height: 4, rgb: Array(repeating: 0, count: 24))
        _ = renderer.render(tall, row: 5, col: 12)
        var changed = tall
        changed.rgb[0..<3] = [7, 7, 7]  // cell (0, 0), top
        changed.rgb[12..<15] = [7, 7, 7]  // cell (1, 0), top
        let down = String(decoding: renderer.render(changed, row: 5, col: 12), as: UTF8.self)
        #expect(down == "\u{1B}[5;12H\u{1B}[38;2;7;7;7m▀\n\u{08}▀")
        // Where CR and LF are translated (lineFeeds false): `ESC[B` and a backspace.
        var escapes = BlockRenderer(truecolor: true, lineFeeds: false)
        _ = escapes.render(tall, row: 5, col: 12)
        let escaped = String(decoding: escapes.render(changed, row: 5, col: 12), as: UTF8.self)
        #expect(escaped == "\u{1B}[5;12H\u{1B}[38;2;7;7;7m▀\u{1B}[B\u{08}▀")

        // From the picture's right edge (maybe the screen's, where relative moves
        // are not safe) to the next row's first cell: CR LF and one forward is
        // 5 bytes, `ESC[6;2H` 6.
        let wide = CellPicture(width: 20, height: 4, rgb: Array(repeating: 0, count: 240))
        var far = wide
        far.rgb[57..<60] = [7, 7, 7]  // cell (0, 19), top
        far.rgb[120..<123] = [7, 7, 7]  // cell (1, 0), top
        var lines = BlockRenderer(truecolor: true)
        _ = lines.render(wide, row: 5, col: 2)
        let out = String(decoding: lines.render(far, row: 5, col: 2), as: UTF8.self)
        #expect(out == "\u{1B}[5;21H\u{1B}[38;2;7;7;7m▀\r\n\u{1B}[C▀")
        var absolute = BlockRenderer(truecolor: true, lineFeeds: false)
        _ = absolute.render(wide, row: 5, col: 2)
        let moved = String(decoding: absolute.render(far, row: 5, col: 2), as: UTF8.self)
        #expect(moved == "\u{1B}[5;21H\u{1B}[38;2;7;7;7m▀\u{1B}[6;2H▀")
    }

    @Test func picksTheGlyphThatKeepsTheColoursAlreadySet() {
        var renderer = BlockRenderer(truecolor: true)
        // Cell 0 sets fg 10 / bg 20; cell 1 is 20 over 30: `▄` keeps bg 20 and needs fg 30 only.
        let out = String(decoding: renderer.render(picture([(10, 10, 10), (20, 20, 20), (20, 20, 20), (30, 30, 30)]), row: 1, col: 1), as: UTF8.self)
        #expect(out == "\u{1B}[1;1H\u{1B}[38;2;10;10;10;48;2;20;20;20m▀\u{1B}[38;2;30;30;30m▄")
        // A solid cell in the foreground colour is a full block, with no code at all.
        var solid = BlockRenderer(truecolor: true)
        let block = String(decoding: solid.render(picture([(10, 10, 10), (10, 10, 10), (20, 20, 20), (10, 10, 10)]), row: 1, col: 1), as: UTF8.self)
        #expect(block == "\u{1B}[1;1H\u{1B}[38;2;10;10;10;48;2;20;20;20m▀█")
    }

    @Test func aColourSetWithinTheToleranceServesTheNextCell() {
        var renderer = BlockRenderer(truecolor: true)
        // Cell 1 is 102 over 51, within 2 levels of cell 0's 100 over 50: no code.
        let out = String(decoding: renderer.render(picture([(100, 100, 100), (102, 98, 102), (50, 50, 50), (51, 52, 48)]), row: 1, col: 1), as: UTF8.self)
        #expect(out == "\u{1B}[1;1H\u{1B}[38;2;100;100;100;48;2;50;50;50m▀▀")
        // The screen shows 100 over 50 in cell 1, and the next frame is compared with that:
        // 102 is still within 2 levels, 103 is not.
        #expect(renderer.render(picture([(100, 100, 100), (102, 100, 100), (50, 50, 50), (50, 50, 50)]), row: 1, col: 1).isEmpty)
        let moved = String(decoding: renderer.render(picture([(100, 100, 100), (103, 100, 100), (50, 50, 50), (50, 50, 50)]), row: 1, col: 1), as: UTF8.self)
        #expect(moved == "\u{1B}[1;2H\u{1B}[38;2;103;100;100m▀")
        // Two halves that close together are one space in one colour.
        var close = BlockRenderer(truecolor: true)
        let space = String(decoding: close.render(picture([(60, 60, 60), (60, 60, 60), (62, 61, 60), (60, 60, 60)]), row: 1, col: 1), as: UTF8.self)
        #expect(space == "\u{1B}[1;1H\u{1B}[48;2;60;60;60m  ")
    }

    @Test func leavesCellsThatMovedByAFewLevelsAlone() {
        var renderer = BlockRenderer(truecolor: true)
        _ = renderer.render(picture([(100, 100, 100), (10, 10, 10), (50, 50, 50), (20, 20, 20)]), row: 1, col: 1)
        // Within 2 levels of what the screen shows: nothing to write.
        #expect(renderer.render(picture([(102, 98, 100), (10, 10, 12), (50, 50, 50), (20, 20, 20)]), row: 1, col: 1).isEmpty)
        // Compared with the screen, not the last frame: drifting on by 2 more is drawn.
        let drift = String(decoding: renderer.render(picture([(104, 98, 100), (10, 10, 12), (50, 50, 50), (20, 20, 20)]), row: 1, col: 1), as: UTF8.self)
        #expect(drift == "\u{1B}[1;1H\u{1B}[38;2;104;98;100;48;2;50;50;50m▀")
        // The 256-colour renderer compares palette entries exactly.
        var palette = BlockRenderer(truecolor: false)
        _ = palette.render(picture([(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)]), row: 1, col: 1)
        #expect(!palette.render(picture([(0, 0, 60), (0, 0, 0), (0, 0, 0), (0, 0, 0)]), row: 1, col: 1).isEmpty)
    }

    /// The shorter code where a palette entry is exact; 16–21 (black to
    /// pure blue) are base16 themes' own colours: never used.
    @Test(arguments: [(0xFFFFFF, 231), (0x000000, nil), (0x0000FF, nil), (0x005F00, 22), (0x5F87AF, 67), (0x080808, 232),
                      (0xEEEEEE, 255), (0xFEFFFF, nil), (0x090909, nil), (0xF8F8F8, nil)] as [(Int, Int?)])
    func writesPaletteColoursWithTheShorterCode(rgb: Int, index: Int?) {
        #expect(Palette256.exactIndex(rgb: rgb) == index)
    }

    @Test func drawsEverythingAgainAfterInvalidate() {
        var renderer = BlockRenderer(truecolor: false)
        let first = renderer.render(picture([(255, 255, 255), (0, 0, 0), (255, 255, 255), (0, 0, 0)]), row: 1, col: 1)
        renderer.invalidate()
        let again = renderer.render(picture([(255, 255, 255), (0, 0, 0), (255, 255, 255), (0, 0, 0)]), row: 1, col: 1)
        #expect(first == again)
        #expect(String(decoding: first, as: UTF8.self).contains("\u{1B}[48;5;231m"))
    }

    @Test(arguments: [(0x000000, 16), (0xFFFFFF, 231), (0xFF0000, 196), (0x808080, 244), (0x5F87AF, 67)])
    func mapsColoursToTheNearest256PaletteEntry(rgb: Int, index: Int) {
        #expect(Palette256.index(rgb: rgb) == index)
    }

    @Test func stripsControlCharactersFromScreenText() {
        #expect(Screen.plain("spi\u{1B}]0;evil\u{07}ders\u{202E} \u{1B}[31mred\u{9B}0m") == "spiders red")
    }
}
