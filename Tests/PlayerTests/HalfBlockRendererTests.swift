import Testing
@testable import PlayerKit

@Suite struct HalfBlockRendererTests {
    /// A 2×2-pixel picture: one cell row of two cells.
    func picture(_ pixels: [(UInt8, UInt8, UInt8)]) -> CellPicture {
        CellPicture(width: 2, height: 2, rgb: pixels.flatMap { [$0.0, $0.1, $0.2] })
    }

    @Test func drawsTopAndBottomPixelsAsForegroundAndBackground() {
        var renderer = HalfBlockRenderer(truecolor: true)
        let out = renderer.render(picture([(255, 0, 0), (0, 0, 0), (0, 0, 255), (0, 0, 0)]), row: 3, col: 5)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text == "\u{1B}[?2026h\u{1B}[3;5H\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[48;2;0;0;0m \u{1B}[0m\u{1B}[?2026l")
    }

    @Test func redrawsOnlyTheCellsThatChanged() {
        var renderer = HalfBlockRenderer(truecolor: true)
        _ = renderer.render(picture([(1, 1, 1), (2, 2, 2), (1, 1, 1), (2, 2, 2)]), row: 1, col: 1)
        let same = renderer.render(picture([(1, 1, 1), (2, 2, 2), (1, 1, 1), (2, 2, 2)]), row: 1, col: 1)
        #expect(String(decoding: same, as: UTF8.self) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[?2026l")
        let second = renderer.render(picture([(1, 1, 1), (9, 9, 9), (1, 1, 1), (9, 9, 9)]), row: 1, col: 1)
        #expect(String(decoding: second, as: UTF8.self) == "\u{1B}[?2026h\u{1B}[1;2H\u{1B}[48;2;9;9;9m \u{1B}[0m\u{1B}[?2026l")
    }

    @Test func movesForwardOnARowInsteadOfJumping() {
        var renderer = HalfBlockRenderer(truecolor: true)
        let wide = CellPicture(width: 4, height: 2, rgb: Array(repeating: 0, count: 24))
        _ = renderer.render(wide, row: 1, col: 1)
        var changed = wide
        changed.rgb[0..<3] = [7, 7, 7]  // cell 0, top
        changed.rgb[9..<12] = [7, 7, 7]  // cell 3, top
        let out = String(decoding: renderer.render(changed, row: 1, col: 1), as: UTF8.self)
        #expect(out == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[38;2;7;7;7;48;2;0;0;0m▀\u{1B}[2C▀\u{1B}[0m\u{1B}[?2026l")
    }

    @Test func drawsEverythingAgainAfterInvalidate() {
        var renderer = HalfBlockRenderer(truecolor: false)
        let first = renderer.render(picture([(255, 255, 255), (0, 0, 0), (255, 255, 255), (0, 0, 0)]), row: 1, col: 1)
        renderer.invalidate()
        let again = renderer.render(picture([(255, 255, 255), (0, 0, 0), (255, 255, 255), (0, 0, 0)]), row: 1, col: 1)
        #expect(first == again)
        #expect(String(decoding: first, as: UTF8.self).contains("\u{1B}[48;5;231m"))
    }

    @Test func mapsColoursToTheNearest256PaletteEntry() {
        #expect(Palette256.index(rgb: 0x000000) == 16)
        #expect(Palette256.index(rgb: 0xFFFFFF) == 231)
        #expect(Palette256.index(rgb: 0xFF0000) == 196)
        #expect(Palette256.index(rgb: 0x808080) == 244)
        #expect(Palette256.index(rgb: 0x5F87AF) == 67)
    }

    @Test func stripsControlCharactersFromScreenText() {
        #expect(Screen.plain("spi\u{1B}]0;evil\u{07}ders\u{202E} \u{1B}[31mred\u{9B}0m") == "spiders red")
    }
}
