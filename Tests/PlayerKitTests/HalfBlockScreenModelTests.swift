// The half-block renderer's output played on a model of a terminal: whatever
// the renderer chooses (glyph, colour codes kept from the last frame, cursor
// moves), the screen must end up showing each frame's picture.

import Testing
import TestSupport
@testable import PlayerKit

@Suite struct HalfBlockScreenModelTests {
    typealias Random = SeededRandom

    /// Pictures that change the way GIFs do: a few flat colours, palette and
    /// near-palette colours, regions that stay, regions that move, small shimmers.
    func frames(width: Int, height: Int, count: Int, random: inout Random) -> [CellPicture] {
        let inks = [0xFFFFFF, 0x000000, 0x5F87AF, 0x123456, 0xFEFEFE, 0x808080, 0x0A0B0C, 0xD7AF00]
        var rgb = (0..<(width * height)).flatMap { _ -> [UInt8] in
            let ink = inks[random.next(inks.count)]
            return [UInt8(ink >> 16), UInt8(ink >> 8 & 0xFF), UInt8(ink & 0xFF)]
        }
        var pictures: [CellPicture] = []
        for _ in 0..<count {
            for _ in 0..<random.next(width * height / 2 + 1) {
                let at = random.next(width * height) * 3
                switch random.next(3) {
                case 0:
                    let ink = inks[random.next(inks.count)]
                    rgb[at] = UInt8(ink >> 16); rgb[at + 1] = UInt8(ink >> 8 & 0xFF); rgb[at + 2] = UInt8(ink & 0xFF)
                case 1:
                    // A shimmer of a level or two.
                    rgb[at] = UInt8(clamping: Int(rgb[at]) + random.next(5) - 2)
                default:
                    rgb[at + 2] = UInt8(random.next(256))
                }
            }
            pictures.append(CellPicture(width: width, height: height, rgb: rgb))
        }
        return pictures
    }

    @Test(arguments: [(1, true), (2, true), (3, false), (4, true), (5, false), (6, true), (7, true), (8, false)])
    func theScreenShowsEveryFrame(seed: UInt64, lineFeeds: Bool) {
        var random = Random(state: seed)
        for _ in 0..<20 {
            let columns = 4 + random.next(30), rows = 3 + random.next(12)
            let width = 1 + random.next(columns), height = 2 * (1 + random.next(rows - 1))
            // Sometimes against the right edge of the screen.
            let originCol = random.next(2) == 0 ? columns - width + 1 : 1 + random.next(columns - width + 1)
            let originRow = 1 + random.next(rows - height / 2)
            var renderer = BlockRenderer(truecolor: true, lineFeeds: lineFeeds)
            var screen = TerminalScreen(columns: columns, rows: rows)
            for (number, picture) in frames(width: width, height: height, count: 6, random: &random).enumerated() {
                if random.next(8) == 0 {
                    // The status line and the like reset the colours.
                    screen.play(Array("\u{1B}[0m".utf8))
                    renderer.forgetColors()
                }
                screen.play(renderer.render(picture, row: originRow, col: originCol))
                #expect(screen.problems.isEmpty, "seed \(seed), frame \(number): \(screen.problems)")
                let shownPixels = screen.raster(row: originRow, col: originCol, width: width, height: height / 2,
                                                cellWidth: 1, cellHeight: 2)
                for y in 0..<(height / 2) {
                    for x in 0..<width {
                        for half in 0..<2 {
                            let shown = shownPixels[(2 * y + half) * width + x]
                            let at = ((2 * y + half) * width + x) * 3
                            let want = [Int(picture.rgb[at]), Int(picture.rgb[at + 1]), Int(picture.rgb[at + 2])]
                            guard let shown else {
                                Issue.record("seed \(seed), frame \(number): cell \(y),\(x) shows the default colour")
                                return
                            }
                            let got = [shown >> 16, shown >> 8 & 0xFF, shown & 0xFF]
                            let off = zip(want, got).map { abs($0 - $1) }.max() ?? 0
                            #expect(off <= BlockRenderer.tolerance,
                                    "seed \(seed), frame \(number): cell \(y),\(x) half \(half) shows \(got), the picture has \(want)")
                            if off > BlockRenderer.tolerance { return }
                        }
                    }
                }
            }
        }
    }
}
