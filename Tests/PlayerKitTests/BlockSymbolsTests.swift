// The finer cells: every character of every set draws the pattern chosen,
// each cell takes the best two-colour split, and the renderer's output,
// played on a model terminal and drawn as geometry (TerminalScreen,
// BlockGeometry in TestSupport), shows the picture: fresh, after 30 frames of
// diffing, around a status line, after a resize.

import Foundation
import Testing
import GIFEngine
import SposureKit
import TestSupport
@testable import PlayerKit

@Suite struct BlockSymbolsTests {
    typealias Random = SeededRandom

    static let modes: [(Symbols, Bool)] = Symbols.allCases.flatMap { [($0, true), ($0, false)] }

    @Test(arguments: Symbols.allCases)
    func everyPatternDrawsItsPixels(symbols: Symbols) throws {
        let cell = symbols.cell, count = cell.width * cell.height
        var seen = Set<[UInt8]>()
        for pattern in 0..<(1 << count) {
            let bytes = symbols.glyph(pattern)
            #expect(seen.insert(bytes).inserted, "\(symbols) pattern \(pattern): a character used twice")
            let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
            #expect(scalars.count == 1)
            let scalar = try #require(scalars.first)
            for y in 0..<cell.height {
                for x in 0..<cell.width {
                    let covered = BlockGeometry.covers(scalar, x: x, y: y, width: cell.width, height: cell.height)
                    #expect(covered == (pattern >> (y * cell.width + x) & 1 == 1),
                            "\(symbols) pattern \(pattern), U+\(String(scalar.value, radix: 16)), pixel \(x),\(y)")
                }
            }
        }
    }

    @Test func octantsTakeTheirUnicodeNames() {
        // BLOCK OCTANT-3 (pattern 4) is the first, BLOCK OCTANT-2345678 the last.
        #expect(Symbols.octant.glyph(0b100) == Array("\u{1CD00}".utf8))
        #expect(Symbols.octant.glyph(0b1111_1110) == Array("\u{1CDE5}".utf8))
        #expect(Symbols.octant.glyph(0b1000_0000) == Array("\u{1CEA0}".utf8))
        #expect(Symbols.sextant.glyph(0b10101) == Array("▌".utf8))
        #expect(Symbols.quad.glyph(0b1001) == Array("▚".utf8))
    }

    /// The least squared error any split of `pixels` into two colours has,
    /// each the exact mean of its group.
    func bestError(_ pixels: [Int]) -> Double {
        var best = Double.infinity
        for pattern in 0..<(1 << pixels.count) {
            var error = 0.0
            for group in [pattern, ~pattern] {
                let members = pixels.indices.filter { group >> $0 & 1 == 1 }
                guard !members.isEmpty else { continue }
                for shift in [16, 8, 0] {
                    let values = members.map { Double(pixels[$0] >> shift & 0xFF) }
                    let mean = values.reduce(0, +) / Double(values.count)
                    error += values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
                }
            }
            best = min(best, error)
        }
        return best
    }

    @Test(arguments: [2, 4, 6, 8])
    func eachCellTakesTheBestSplit(count: Int) {
        var random = Random(state: UInt64(count))
        for _ in 0..<300 {
            let pixels = (0..<count).map { _ in random.next(4) == 0 ? 0x336699 : random.next(1 << 24) }
            let split = pixels.withUnsafeBufferPointer { CellSplit.best($0.baseAddress!, count: count) }
            #expect(split.pattern & 1 == 1)
            var error = 0.0
            for (index, pixel) in pixels.enumerated() {
                let shown = split.pattern >> index & 1 == 1 ? split.inside : split.outside
                for shift in [16, 8, 0] {
                    let off = Double((pixel >> shift & 0xFF) - (shown >> shift & 0xFF))
                    error += off * off
                }
            }
            // The means are rounded to whole levels: at most half a level a channel off.
            #expect(error <= bestError(pixels) + Double(count) * 3 * 0.25 + 1e-9, "\(pixels)")
        }
    }

    /// A picture whose every cell has at most two colours, from the palette
    /// (so that 256 colours show it exactly too).
    func twoColourPicture(columns: Int, rows: Int, cell: CellSize, random: inout Random) -> CellPicture {
        let inks = [0xFFFFFF, 0x5F87AF, 0xD7AF00, 0x875F00, 0x00AF87, 0x080808, 0xAF005F]
        let width = columns * cell.width, height = rows * cell.height
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<rows {
            for col in 0..<columns {
                let pair = (inks[random.next(inks.count)], inks[random.next(inks.count)])
                for y in 0..<cell.height {
                    for x in 0..<cell.width {
                        let ink = random.next(2) == 0 ? pair.0 : pair.1
                        let at = ((row * cell.height + y) * width + col * cell.width + x) * 3
                        rgb[at] = UInt8(ink >> 16)
                        rgb[at + 1] = UInt8(ink >> 8 & 0xFF)
                        rgb[at + 2] = UInt8(ink & 0xFF)
                    }
                }
            }
        }
        return CellPicture(width: width, height: height, rgb: rgb)
    }

    func shown(_ screen: inout TerminalScreen, _ picture: CellPicture, at origin: (row: Int, col: Int), _ cell: CellSize) -> [Int?] {
        screen.raster(row: origin.row, col: origin.col, width: picture.width / cell.width, height: picture.height / cell.height,
                      cellWidth: cell.width, cellHeight: cell.height)
    }

    func pixels(_ picture: CellPicture) -> [Int?] {
        stride(from: 0, to: picture.rgb.count, by: 3).map { (at: Int) -> Int? in
            let red = Int(picture.rgb[at]), green = Int(picture.rgb[at + 1]), blue = Int(picture.rgb[at + 2])
            return red << 16 | green << 8 | blue
        }
    }

    @Test(arguments: modes)
    func aFreshFrameShowsEveryPixelOfTwoColourCells(symbols: Symbols, truecolor: Bool) {
        var random = Random(state: 7)
        let cell = symbols.cell
        for lineFeeds in [true, false] {
            let picture = twoColourPicture(columns: 13, rows: 5, cell: cell, random: &random)
            var renderer = BlockRenderer(truecolor: truecolor, symbols: symbols, lineFeeds: lineFeeds)
            var screen = TerminalScreen(columns: 20, rows: 8)
            screen.play(renderer.render(picture, row: 2, col: 8))
            #expect(screen.problems.isEmpty, "\(screen.problems.prefix(3))")
            #expect(shown(&screen, picture, at: (2, 8), cell) == pixels(picture))
        }
    }

    /// Frames of a smooth picture (a photograph's gradients and edges) that
    /// pans, with the shimmer of area averaging.
    func movingFrames(width: Int, height: Int, count: Int) -> [CellPicture] {
        (0..<count).map { frame in
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x + frame) / 7, v = Double(y) / 5
                    let at = (y * width + x) * 3
                    let shimmer = (x * 7 + y * 13 + frame * 5) % 3
                    rgb[at] = UInt8(clamping: Int(127 + 120 * sin(u + v)) + shimmer)
                    rgb[at + 1] = UInt8(clamping: Int(127 + 100 * cos(u * 0.7 - v)) - shimmer)
                    rgb[at + 2] = UInt8(clamping: ((x + frame) / 9 + y / 6) % 2 == 0 ? 40 : 220)
                }
            }
            return CellPicture(width: width, height: height, rgb: rgb)
        }
    }

    /// Mean squared error of what is shown against the picture.
    func meanSquaredError(_ shown: [Int?], _ picture: CellPicture) -> Double {
        var sum = 0.0
        for (index, pixel) in shown.enumerated() {
            let value = pixel ?? 0
            for (channel, shift) in [16, 8, 0].enumerated() {
                let off = Double((value >> shift & 0xFF) - Int(picture.rgb[index * 3 + channel]))
                sum += off * off
            }
        }
        return sum / Double(shown.count * 3)
    }

    @Test(arguments: modes)
    func diffingLeavesNoTrace(symbols: Symbols, truecolor: Bool) {
        let cell = symbols.cell
        let frames = movingFrames(width: 24 * cell.width, height: 9 * cell.height, count: 30)
        var renderer = BlockRenderer(truecolor: truecolor, symbols: symbols)
        var screen = TerminalScreen(columns: 30, rows: 12)
        for (number, frame) in frames.enumerated() {
            if number % 11 == 10 {
                // The status line resets the colours now and then.
                screen.play(Array("\u{1B}[12;1H\u{1B}[0m\u{1B}[2mstatus\u{1B}[0m\u{1B}[K".utf8))
                renderer.forgetColors()
            }
            screen.play(renderer.render(frame, row: 2, col: 4))
        }
        var fresh = TerminalScreen(columns: 30, rows: 12)
        var freshRenderer = BlockRenderer(truecolor: truecolor, symbols: symbols)
        fresh.play(freshRenderer.render(frames[29], row: 2, col: 4))
        #expect(screen.problems.isEmpty && fresh.problems.isEmpty, "\(screen.problems.prefix(3))")
        let diffed = shown(&screen, frames[29], at: (2, 4), cell), whole = shown(&fresh, frames[29], at: (2, 4), cell)
        // Each within the tolerance of the best split, so of each other within twice it.
        var worst = 0
        for (a, b) in zip(diffed, whole) {
            let a = a ?? -1, b = b ?? -1
            for shift in [16, 8, 0] { worst = max(worst, abs((a >> shift & 0xFF) - (b >> shift & 0xFF))) }
        }
        #expect(worst <= (truecolor ? 2 * BlockRenderer.tolerance : 0), "\(symbols) truecolor \(truecolor)")
        let psnr = { (error: Double) in 10 * log10(255 * 255 / error) }
        let after30 = psnr(meanSquaredError(diffed, frames[29])), direct = psnr(meanSquaredError(whole, frames[29]))
        // As faithful: the same PSNR within 0.05 dB, or both past 50 dB (less
        // than a level of error on average, where half blocks are: they show
        // their two pixels exactly, and the tolerance is all there is).
        #expect(after30 >= min(direct - 0.05, 50), "\(symbols) truecolor \(truecolor): \(after30) dB after 30 frames, \(direct) dB fresh")
    }

    @Test(arguments: Symbols.allCases)
    func aNewSizeOrPlaceIsDrawnWhole(symbols: Symbols) {
        var random = Random(state: 11)
        let cell = symbols.cell
        var renderer = BlockRenderer(truecolor: true, symbols: symbols)
        var screen = TerminalScreen(columns: 30, rows: 12)
        let before = twoColourPicture(columns: 20, rows: 8, cell: cell, random: &random)
        screen.play(renderer.render(before, row: 1, col: 1))
        // The terminal was resized: the screen cleared, the GIF fitted again, smaller and elsewhere.
        screen.play(Array("\u{1B}[0m\u{1B}[2J".utf8))
        renderer.invalidate()
        let after = twoColourPicture(columns: 9, rows: 4, cell: cell, random: &random)
        screen.play(renderer.render(after, row: 3, col: 6))
        #expect(shown(&screen, after, at: (3, 6), cell) == pixels(after))
        // The same picture moved (a new layout) without a clear is drawn whole too.
        screen.play(renderer.render(after, row: 5, col: 2))
        #expect(shown(&screen, after, at: (5, 2), cell) == pixels(after))
        #expect(screen.problems.isEmpty)
    }

    @Test(arguments: Symbols.allCases)
    func theStatusLineStaysBesideThePicture(symbols: Symbols) throws {
        try withTemporaryDirectory { folder in
            let path = try PlayGIF.write(PlayGIF.animated(delays: [4, 4, 4]), "g.gif", in: folder)
            let record = JSONRecord()
            record.set("kind", "image")
            let tty = folder.appendingPathComponent("tty").path
            let terminal = try Terminal(path: tty)
            terminal.enter(mouse: false)
            let setup = try Data(contentsOf: URL(fileURLWithPath: tty)).count
            let screen = Screen(terminal: terminal, renderer: .truecolor, symbols: symbols, columns: 40, rows: 12)
            #expect(screen.symbols == symbols)
            let layout = screen.layout(background: .black, cellPixels: nil)
            #expect(layout.cell == symbols.cell)
            let gif = try PreparedGIF.whole(record: record, path: path, layout: layout)
            // Whole cells, both ways.
            #expect(gif.picture(0).width % symbols.cell.width == 0 && gif.picture(0).height % symbols.cell.height == 0)
            var model = TerminalScreen(columns: 40, rows: 12)
            for frame in 0..<3 {
                screen.clearPicture()
                screen.draw(gif, frame: frame)
                screen.status("⏱ \(frame)s")
                screen.flush()
                let bytes = try Data(contentsOf: URL(fileURLWithPath: tty)).dropFirst(setup)
                model = TerminalScreen(columns: 40, rows: 12)
                model.play(Array(bytes))
                #expect(model.problems.isEmpty, "\(model.problems.prefix(3))")
                let picture = gif.picture(frame)
                let shownPixels = shown(&model, picture, at: gif.origin, symbols.cell)
                #expect(meanSquaredError(shownPixels, picture) < 400, "\(symbols) frame \(frame)")
            }
            let status = (1...5).map { String(Character(model.cell(row: 12, col: $0).scalar)) }.joined()
            #expect(status == "⏱ 2s ")
        }
    }
}

@Suite struct SymbolsChoiceTests {
    @Test(arguments: [
        ("kitty(0.47.1)", Symbols.octant), ("kitty(0.40.0)", .sextant), ("kitty(0.18.3)", .quad),
        ("ghostty 1.2.0", .octant), ("ghostty 1.1.3", .sextant),
        ("WezTerm 20240203-110809-5046fc22", .sextant), ("WezTerm 20250512-093114-abcdef12", .octant), ("WezTerm 20200909", .quad),
        ("foot(1.16.2)", .sextant), ("XTerm(388)", .quad), ("iTerm2 3.5.0", .quad),
    ])
    func theTerminalsAnswerDecides(answer: String, symbols: Symbols) {
        #expect(Symbols.automatic(terminal: answer, environment: ["TERM_PROGRAM": "WezTerm", "TERM_PROGRAM_VERSION": "20250512"]) == symbols)
    }

    @Test func withoutAnAnswerTheEnvironmentDecides() {
        #expect(Symbols.automatic(terminal: nil, environment: [:]) == .quad)
        #expect(Symbols.automatic(terminal: nil, environment: ["TERM": "xterm-256color"]) == .quad)
        #expect(Symbols.automatic(terminal: nil, environment: ["TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.2.3"]) == .octant)
        #expect(Symbols.automatic(terminal: nil, environment: ["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.5.0"]) == .quad)
        #expect(Symbols.automatic(terminal: nil, environment: ["TERM": "xterm-kitty"]) == .sextant)
        #expect(Symbols.automatic(terminal: nil, environment: ["TERM": "foot"]) == .sextant)
        // An unknown answer falls back to the environment.
        #expect(Symbols.automatic(terminal: "Mystery 1.0", environment: ["TERM": "foot"]) == .sextant)
    }

    @Test func insideTmuxTheOuterTerminalDecidesWhenStillKnown() {
        let tmux = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4", "TERM": "tmux-256color"]
        #expect(Symbols.automatic(terminal: "tmux 3.4", environment: tmux) == .quad)
        #expect(Symbols.automatic(terminal: "tmux 3.4", environment: tmux.merging(["KITTY_WINDOW_ID": "1"]) { $1 }) == .sextant)
        #expect(Symbols.automatic(terminal: "tmux 3.4", environment: tmux.merging(["WEZTERM_PANE": "0"]) { $1 }) == .sextant)
    }

    @Test func picturesKeepTheirShapeInCellsOfAnySet() {
        // A square picture in 40×20 cells: 20 cells wide, 10 tall (a cell is twice as tall as wide), in every set.
        for symbols in Symbols.allCases {
            let scaler = Scaler.fitting(sourceWidth: 300, sourceHeight: 300, columns: 40, rows: 10, cell: symbols.cell)
            #expect(scaler.cells(symbols.cell) == (columns: 20, rows: 10), "\(symbols): \(scaler.width)×\(scaler.height)")
        }
        // Not enlarged: a source pixel is a cell pixel across.
        let small = Scaler.fitting(sourceWidth: 10, sourceHeight: 10, columns: 40, rows: 20, cell: .quadrant, enlarge: false)
        #expect((small.width, small.height) == (10, 5))
    }
}
