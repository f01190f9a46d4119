import Testing
@testable import GIFEngine

@Suite struct ScalerTests {
    /// RGBA bytes from `[r, g, b, a]` pixels.
    func rgba(_ pixels: [[UInt8]]) -> [UInt8] { pixels.flatMap { $0 } }

    /// `[r, g, b, a]` pixels from RGBA bytes.
    func pixels(_ bytes: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: 4).map { Array(bytes[$0..<($0 + 4)]) }
    }

    /// One scaling: what it is for, the source (`[r, g, b, a]` pixels), the
    /// sizes, the background (nil: keep alpha) and the pixels expected.
    typealias Scaling = (String, [[UInt8]], (Int, Int), (Int, Int), RGBColor?, [[UInt8]])

    @Test func scalingAveragesTheAreaEachPixelCovers() {
        let rgbw: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]
        let redBesideClear: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 0]]  // the clear pixel's green is meaningless
        let clear: [[UInt8]] = [[9, 9, 9, 0], [9, 9, 9, 0]]
        let (black, white): ([UInt8], [UInt8]) = ([0, 0, 0, 255], [255, 255, 255, 255])
        let (a, b): ([UInt8], [UInt8]) = ([10, 20, 30, 255], [40, 50, 60, 255])
        let table: [Scaling] = [
            ("the same size gives the same pixels", [[1, 2, 3, 255], [4, 5, 6, 255], [7, 8, 9, 255], [10, 11, 12, 255]],
             (2, 2), (2, 2), nil, [[1, 2, 3, 255], [4, 5, 6, 255], [7, 8, 9, 255], [10, 11, 12, 255]]),
            ("halving averages each 2×2 block (two 255s of four)", rgbw, (2, 2), (1, 1), .black, [[128, 128, 128, 255]]),
            ("a transparent pixel adds coverage, no color", redBesideClear, (2, 1), (1, 1), nil, [[255, 0, 0, 128]]),
            ("… over white", redBesideClear, (2, 1), (1, 1), RGBColor(red: 255, green: 255, blue: 255), [[255, 128, 128, 255]]),
            ("… over black", redBesideClear, (2, 1), (1, 1), .black, [[128, 0, 0, 255]]),
            ("a fully transparent area is the background", clear, (2, 1), (1, 1), RGBColor(red: 30, green: 40, blue: 50),
             [[30, 40, 50, 255]]),
            ("… or transparent black", clear, (2, 1), (1, 1), nil, [[0, 0, 0, 0]]),
            ("a thin line (a third of the area) becomes faint, not gone",
             [black, white, black, black, white, black, black, white, black], (3, 3), (1, 1), .black, [[85, 85, 85, 255]]),
            ("3 → 2: the middle pixel is split half and half", [[0, 0, 0, 255], [90, 90, 90, 255], [180, 180, 180, 255]],
             (3, 1), (2, 1), .black, [[30, 30, 30, 255], [150, 150, 150, 255]]),
            ("enlarging repeats pixels", [a, b], (2, 1), (4, 2), .black, [a, a, b, b, a, a, b, b]),
            ("a short source counts as transparent", [[200, 100, 50, 255]], (2, 1), (1, 1), nil, [[200, 100, 50, 128]]),
        ]
        for (what, source, from, to, background, expected) in table {
            let scaler = Scaler(sourceWidth: from.0, sourceHeight: from.1, width: to.0, height: to.1, background: background)
            #expect(pixels(scaler.scale(rgba(source))) == expected, "\(what)")
        }
    }

    @Test func fitsACanvasIntoHalfBlockCellsKeepingItsShape() {
        // 80×24 cells of 1×2 pixels: room for 80×48 pixels.
        let wide = Scaler.fitting(sourceWidth: 480, sourceHeight: 270, columns: 80, rows: 24, cell: .halfBlock)
        #expect([wide.width, wide.height] == [80, 45])
        #expect(wide.cells(.halfBlock) == (80, 23))
        let square = Scaler.fitting(sourceWidth: 100, sourceHeight: 100, columns: 80, rows: 24, cell: .halfBlock)
        #expect([square.width, square.height] == [48, 48])
        let tall = Scaler.fitting(sourceWidth: 10, sourceHeight: 1000, columns: 80, rows: 24, cell: .halfBlock)
        #expect([tall.width, tall.height] == [1, 48])
    }

    @Test func fitsACanvasIntoPixelCells() {
        let scaler = Scaler.fitting(sourceWidth: 480, sourceHeight: 270, columns: 80, rows: 24, cell: .defaultPixels)
        #expect([scaler.width, scaler.height] == [640, 360])
        #expect(scaler.cells(.defaultPixels) == (80, 23))
        #expect(CellSize.defaultPixels == CellSize(width: 8, height: 16))
    }

    @Test func enlargesASmallCanvasOnlyWhenAsked() {
        let enlarged = Scaler.fitting(sourceWidth: 10, sourceHeight: 10, columns: 80, rows: 24)
        #expect([enlarged.width, enlarged.height] == [48, 48])
        let kept = Scaler.fitting(sourceWidth: 10, sourceHeight: 10, columns: 80, rows: 24, enlarge: false)
        #expect([kept.width, kept.height] == [10, 10])
    }

    @Test func scalingAFrameKeepsItsTiming() {
        let frame = Frame(index: 3, width: 2, height: 1, rgba: rgba([[0, 0, 0, 255], [255, 255, 255, 255]]),
                          delayMs: 70, delayCentiseconds: 7, images: 2..<5)
        let scaled = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1).scale(frame)
        #expect(scaled == Frame(index: 3, width: 1, height: 1, rgba: [128, 128, 128, 255], delayMs: 70, delayCentiseconds: 7, images: 2..<5))
    }

    @Test func parsesBackgroundColors() {
        #expect(RGBColor(hex: "#1e1E2f") == RGBColor(red: 0x1E, green: 0x1E, blue: 0x2F))
        #expect(RGBColor(hex: "000000") == .black)
        #expect(RGBColor(hex: "12345") == nil)
        #expect(RGBColor(hex: "gg0000") == nil)
        #expect(RGBColor(red: 1, green: 171, blue: 255).description == "01abff")
    }
}
