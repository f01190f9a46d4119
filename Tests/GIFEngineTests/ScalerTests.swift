import Testing
@testable import GIFEngine

@Suite struct ScalerTests {
    /// RGBA bytes from `[r, g, b, a]` pixels.
    func rgba(_ pixels: [[UInt8]]) -> [UInt8] { pixels.flatMap { $0 } }

    /// `[r, g, b, a]` pixels from RGBA bytes.
    func pixels(_ bytes: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: 4).map { Array(bytes[$0..<($0 + 4)]) }
    }

    @Test func theSameSizeGivesTheSamePixels() {
        let source = rgba([[1, 2, 3, 255], [4, 5, 6, 255], [7, 8, 9, 255], [10, 11, 12, 255]])
        let scaler = Scaler(sourceWidth: 2, sourceHeight: 2, width: 2, height: 2, background: nil)
        #expect(scaler.scale(source) == source)
    }

    @Test func halvingAveragesEachTwoByTwoBlock() {
        // Red, green, blue, white: each channel has two 255s out of four.
        let source = rgba([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]])
        let scaler = Scaler(sourceWidth: 2, sourceHeight: 2, width: 1, height: 1)
        #expect(pixels(scaler.scale(source)) == [[128, 128, 128, 255]])
    }

    @Test func transparentPixelsAddNoColorOnlyCoverage() {
        // Opaque red beside a transparent pixel whose (meaningless) color is green.
        let source = rgba([[255, 0, 0, 255], [0, 255, 0, 0]])
        let keepAlpha = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1, background: nil)
        #expect(pixels(keepAlpha.scale(source)) == [[255, 0, 0, 128]])
        let overWhite = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1, background: RGBColor(red: 255, green: 255, blue: 255))
        #expect(pixels(overWhite.scale(source)) == [[255, 128, 128, 255]])
        let overBlack = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1)
        #expect(pixels(overBlack.scale(source)) == [[128, 0, 0, 255]])
    }

    @Test func aFullyTransparentAreaIsTheBackground() {
        let source = rgba([[9, 9, 9, 0], [9, 9, 9, 0]])
        let scaler = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1, background: RGBColor(red: 30, green: 40, blue: 50))
        #expect(pixels(scaler.scale(source)) == [[30, 40, 50, 255]])
        let keepAlpha = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1, background: nil)
        #expect(pixels(keepAlpha.scale(source)) == [[0, 0, 0, 0]])
    }

    @Test func aThinLineBecomesAFaintLineInsteadOfVanishing() {
        // A one-pixel white column in 3×3 black: a third of the area.
        let black: [UInt8] = [0, 0, 0, 255], white: [UInt8] = [255, 255, 255, 255]
        let source = rgba([black, white, black, black, white, black, black, white, black])
        let scaler = Scaler(sourceWidth: 3, sourceHeight: 3, width: 1, height: 1)
        #expect(pixels(scaler.scale(source)) == [[85, 85, 85, 255]])
    }

    @Test func fractionalAreasAreWeightedByHowMuchTheyCover() {
        // 3 → 2: the middle pixel is split half and half.
        let source = rgba([[0, 0, 0, 255], [90, 90, 90, 255], [180, 180, 180, 255]])
        let scaler = Scaler(sourceWidth: 3, sourceHeight: 1, width: 2, height: 1)
        #expect(pixels(scaler.scale(source)) == [[30, 30, 30, 255], [150, 150, 150, 255]])
    }

    @Test func enlargingRepeatsPixels() {
        let source = rgba([[10, 20, 30, 255], [40, 50, 60, 255]])
        let scaler = Scaler(sourceWidth: 2, sourceHeight: 1, width: 4, height: 2)
        #expect(pixels(scaler.scale(source)) == [[10, 20, 30, 255], [10, 20, 30, 255], [40, 50, 60, 255], [40, 50, 60, 255],
                                                 [10, 20, 30, 255], [10, 20, 30, 255], [40, 50, 60, 255], [40, 50, 60, 255]])
    }

    @Test func aShortSourceCountsAsTransparent() {
        let scaler = Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1, background: nil)
        #expect(pixels(scaler.scale([200, 100, 50, 255])) == [[200, 100, 50, 128]])
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
