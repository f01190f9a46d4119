// The half-block renderer's output played on a model of a terminal: whatever
// the renderer chooses (glyph, colour codes kept from the last frame, cursor
// moves), the screen must end up showing each frame's picture.

import Testing
@testable import PlayerKit

/// What an xterm-like terminal does with the sequences the renderer writes:
/// CUP, CUF, CUB, CUD, BS, CR, LF (raw: down a row, same column), SGR 0 / 38;2 / 48;2 /
/// 38;5 / 48;5, and the half-block glyphs. Cells hold the colours shown in
/// their top and bottom halves.
struct ScreenModel {
    let columns: Int, rows: Int
    var top: [Int?], bottom: [Int?]
    var row = 1, col = 1, pendingWrap = false
    var fg: Int?, bg: Int?
    var problems: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        top = Array(repeating: nil, count: columns * rows)
        bottom = top
    }

    mutating func play(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                control(String(decoding: bytes[(i + 2)..<j], as: UTF8.self), final: bytes[j])
                i = j + 1
            } else if byte == 0x0A {
                // Terminals differ on LF in the pending-wrap state, and on the last row it scrolls.
                if pendingWrap { problems.append("LF in the pending-wrap state") }
                if row == rows { problems.append("LF on the last row (it would scroll)") }
                row = min(rows, row + 1); i += 1
            } else if byte == 0x0D {
                col = 1; pendingWrap = false; i += 1
            } else if byte == 0x08 {
                if pendingWrap { problems.append("backspace in the pending-wrap state") }
                col = max(1, col - 1); i += 1
            } else if byte == 0x20 {
                put(bg, bg); i += 1
            } else if byte == 0xE2, i + 2 < bytes.count {
                switch bytes[i + 2] {
                case 0x80: put(fg, bg)  // ▀
                case 0x84: put(bg, fg)  // ▄
                case 0x88: put(fg, fg)  // █
                default: problems.append("unknown glyph")
                }
                i += 3
            } else {
                problems.append("unexpected byte \(byte)"); i += 1
            }
        }
    }

    private mutating func put(_ upper: Int?, _ lower: Int?) {
        if pendingWrap { problems.append("a glyph written after the last column (it would wrap)") }
        guard (1...rows).contains(row), (1...columns).contains(col) else {
            problems.append("a glyph written off screen at \(row);\(col)")
            return
        }
        top[(row - 1) * columns + col - 1] = upper
        bottom[(row - 1) * columns + col - 1] = lower
        if col == columns { pendingWrap = true } else { col += 1 }
    }

    private mutating func control(_ parameters: String, final: UInt8) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let n = max(1, numbers.first ?? 1)
        switch final {
        case UInt8(ascii: "H"): row = numbers[0]; col = numbers[1]; pendingWrap = false
        case UInt8(ascii: "C"): col = min(columns, col + n); pendingWrap = false
        case UInt8(ascii: "D"): col = max(1, col - n); pendingWrap = false
        case UInt8(ascii: "B"): row = min(rows, row + n); pendingWrap = false
        case UInt8(ascii: "m"): sgr(numbers)
        case UInt8(ascii: "h"), UInt8(ascii: "l"): break  // ?2026
        default: problems.append("unexpected sequence \(parameters)\(Character(UnicodeScalar(final)))")
        }
    }

    private mutating func sgr(_ numbers: [Int]) {
        var k = 0
        while k < numbers.count {
            switch numbers[k] {
            case 0:
                fg = nil
                bg = nil
                k += 1
            case 38, 48:
                let foreground = numbers[k] == 38
                let color: Int
                if numbers[k + 1] == 2 {
                    color = numbers[k + 2] << 16 | numbers[k + 3] << 8 | numbers[k + 4]
                    k += 5
                } else {
                    color = Self.palette(numbers[k + 2])
                    k += 3
                }
                if foreground { fg = color } else { bg = color }
            default:
                problems.append("unexpected SGR \(numbers[k])")
                k += 1
            }
        }
    }

    /// xterm's colour for palette entry `n` (16–255).
    static func palette(_ n: Int) -> Int {
        if n >= 232 {
            let v = 8 + 10 * (n - 232)
            return v << 16 | v << 8 | v
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let i = n - 16
        return levels[i / 36] << 16 | levels[i / 6 % 6] << 8 | levels[i % 6]
    }
}

@Suite struct HalfBlockScreenModelTests {
    /// A seeded generator, so a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

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
            var screen = ScreenModel(columns: columns, rows: rows)
            for (number, picture) in frames(width: width, height: height, count: 6, random: &random).enumerated() {
                if random.next(8) == 0 {
                    // The status line and the like reset the colours.
                    screen.play(Array("\u{1B}[0m".utf8))
                    renderer.forgetColors()
                }
                screen.play(renderer.render(picture, row: originRow, col: originCol))
                #expect(screen.problems.isEmpty, "seed \(seed), frame \(number): \(screen.problems)")
                for y in 0..<(height / 2) {
                    for x in 0..<width {
                        let cell = (originRow + y - 1) * columns + originCol + x - 1
                        for (half, shown) in [(0, screen.top[cell]), (1, screen.bottom[cell])] {
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
