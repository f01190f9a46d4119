import Foundation
import Testing
import TestSupport
@testable import GIFEngine

/// Black, white, red, green, blue.
let palette: [[UInt8]] = [[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255]]
let (K, W, R, G, B, T) = ("000000", "ffffff", "ff0000", "00ff00", "0000ff", "....")

func decodeAll(_ writer: GIFBuilder, _ options: DecodeOptions = DecodeOptions()) -> (info: GIFInfo?, frames: [Frame], error: GIFError?) {
    GIFDecoder.decodeAll(bytes: writer.bytes, options: options)
}

/// A GIF of `width`×`height` whose blocks `build` writes, then the trailer.
func gif(_ width: Int, _ height: Int, colors: [[UInt8]]? = palette, background: UInt8 = 0,
         _ build: (inout GIFBuilder) -> Void) -> GIFBuilder {
    var gif = GIFBuilder(width: width, height: height, colors: colors, background: background)
    build(&gif)
    gif.trailer()
    return gif
}

@Suite struct GIFDecoderTests {
    @Test func drawsAnImageThroughTheGlobalColorTable() {
        let result = decodeAll(gif(2, 2) { $0.image(width: 2, height: 2, pixels: [2, 3, 4, 1]) })
        #expect(result.error == nil)
        #expect(result.frames.map(pixelWords) == [[R, G, B, W]])
        #expect(result.info == GIFInfo(version: "GIF89a", width: 2, height: 2, imageCount: 1, frameCount: 1,
                                       loopCount: nil, commentBytes: nil, backgroundIndex: 0))
    }

    /// Compositing and disposal: what each image leaves on the canvas, frame by frame.
    @Test func imagesAreCompositedOntoTheCanvasFrameByFrame() {
        let whiteRed: [[UInt8]] = [[255, 255, 255], [255, 0, 0]]
        let tenReds = (0..<10).map { (index: Int) -> [UInt8] in [UInt8(index * 20), 0, 0] }
        let table: [(String, GIFBuilder, [[String]])] = [
            ("a local color table wins over the global one",
             gif(1, 1) { $0.image(width: 1, height: 1, pixels: [1], colors: [[9, 9, 9], [1, 2, 3]]) }, [["010203"]]),
            ("indices past the color table are opaque black",
             gif(2, 1, colors: whiteRed) { $0.image(width: 2, height: 1, pixels: [1, 7], codeSize: 3) }, [[R, K]]),
            ("with no color table at all every pixel is opaque black",
             gif(2, 1, colors: nil) { $0.image(width: 2, height: 1, pixels: [0, 1]) }, [[K, K]]),
            ("the transparent index leaves the canvas as it was", gif(2, 1) {
                $0.control(delay: 10)
                $0.image(width: 2, height: 1, pixels: [2, 2])
                $0.control(delay: 10, transparent: 3)
                $0.image(width: 2, height: 1, pixels: [3, 4])
            }, [[R, R], [R, B]]),
            ("a transparent index outside the table makes nothing transparent", gif(2, 1, colors: whiteRed) {
                $0.control(transparent: 5)
                $0.image(width: 2, height: 1, pixels: [1, 5], codeSize: 3)
            }, [[R, K]]),
            ("images are clipped to the logical screen", gif(3, 2) {
                $0.image(left: 2, top: 1, width: 3, height: 3, pixels: [2, 3, 4, 2, 3, 4, 2, 3, 4])
                $0.image(left: 5, top: 0, width: 1, height: 1, pixels: [1])
            }, [[T, T, T, T, T, R]]),
            ("interlaced rows land in their passes (stored order 0 8 | 4 | 2 6 | 1 3 5 7 9)", gif(1, 10, colors: tenReds) {
                $0.image(width: 1, height: 10, pixels: [0, 8, 4, 2, 6, 1, 3, 5, 7, 9], interlaced: true)
            }, [(0..<10).map { RGBColor(red: UInt8($0 * 20), green: 0, blue: 0).description }]),
            ("disposal 2 clears the image rectangle to transparent", gif(2, 1, background: 1) {
                $0.control(delay: 10)
                $0.image(width: 2, height: 1, pixels: [2, 2])
                $0.control(delay: 10, disposal: 2)
                $0.image(left: 1, width: 1, height: 1, pixels: [3])
                $0.control(delay: 10)
                $0.image(width: 1, height: 1, pixels: [4])
            }, [[R, R], [R, G], [B, T]]),
            ("disposal 3 restores the canvas as it was before the image", gif(2, 1) {
                $0.control(delay: 10)
                $0.image(width: 2, height: 1, pixels: [2, 2])
                $0.control(delay: 10, disposal: 3)
                $0.image(width: 2, height: 1, pixels: [3, 3])
                $0.control(delay: 10, disposal: 3)
                $0.image(left: 1, width: 1, height: 1, pixels: [4])
                $0.control(delay: 10)
                $0.image(width: 1, height: 1, pixels: [1])
            }, [[R, R], [G, G], [R, B], [W, R]]),
            // "As it was before the image": after the first image's disposal 2,
            // not the first image itself (pygif's runner would restore that).
            ("disposal 3 after disposal 2 restores the cleared canvas", gif(1, 1) {
                $0.control(delay: 10, disposal: 2)
                $0.image(width: 1, height: 1, pixels: [2])
                $0.control(delay: 10, disposal: 3)
                $0.image(width: 1, height: 1, pixels: [3])
                $0.control(delay: 10, transparent: 0)
                $0.image(width: 1, height: 1, pixels: [0])
            }, [[R], [G], [T]]),
            ("disposal 4 is read as restore previous", gif(1, 1) {
                $0.control(delay: 10)
                $0.image(width: 1, height: 1, pixels: [2])
                $0.control(delay: 10, disposal: 4)
                $0.image(width: 1, height: 1, pixels: [3])
                $0.control(delay: 10, transparent: 0)
                $0.image(width: 1, height: 1, pixels: [0])
            }, [[R], [G], [R]]),
        ]
        for (what, file, frames) in table {
            let result = decodeAll(file)
            #expect(result.error == nil, "\(what)")
            #expect(result.frames.map(pixelWords) == frames, "\(what)")
        }
    }

    // MARK: Frames and delays

    @Test func imagesWithoutADelayMergeIntoTheNextFrame() {
        var gif = GIFBuilder(width: 2, height: 1, colors: palette)
        gif.loop(0)
        gif.control(delay: 50)
        gif.image(width: 2, height: 1, pixels: [1, 1])
        gif.image(width: 1, height: 1, pixels: [2])            // no control
        gif.control(delay: 0)
        gif.image(left: 1, width: 1, height: 1, pixels: [3])   // explicit zero
        gif.control(delay: 30)
        gif.image(width: 1, height: 1, pixels: [4])
        gif.control(delay: 0)
        gif.image(left: 1, width: 1, height: 1, pixels: [2])   // last: ends a frame anyway
        gif.trailer()
        let result = decodeAll(gif)
        #expect(result.frames.map(pixelWords) == [[W, W], [B, G], [B, R]])
        #expect(result.frames.map(\.images) == [0..<1, 1..<4, 4..<5])
        #expect(result.frames.map(\.delayCentiseconds) == [50, 30, 0])
        #expect(result.frames.map(\.delayMs) == [500, 300, 100])
        #expect(result.info?.frameCount == 3)
        #expect(result.info?.imageCount == 5)
    }

    @Test func everyImageGroupingMakesEachImageAFrame() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.control(delay: 50)
        gif.image(width: 1, height: 1, pixels: [1])
        gif.image(width: 1, height: 1, pixels: [2])
        gif.trailer()
        let result = decodeAll(gif, DecodeOptions(grouping: .everyImage))
        #expect(result.frames.map(pixelWords) == [[W], [R]])
        #expect(result.frames.map(\.delayMs) == [500, 100])
    }

    @Test func imagesWithoutAnyDelayAreTilesOfOnePictureUnlessTheFileLoops() {
        var tiles = GIFBuilder(width: 2, height: 1, colors: palette)
        tiles.image(width: 1, height: 1, pixels: [2])
        tiles.image(left: 1, width: 1, height: 1, pixels: [3])
        tiles.trailer()
        #expect(decodeAll(tiles).frames.map(pixelWords) == [[R, G]])

        var looping = GIFBuilder(width: 2, height: 1, colors: palette)
        looping.loop(0)
        looping.image(width: 1, height: 1, pixels: [2])
        looping.image(left: 1, width: 1, height: 1, pixels: [3])
        looping.trailer()
        let result = decodeAll(looping)
        #expect(result.frames.map(pixelWords) == [[R, T], [R, G]])
        #expect(result.frames.map(\.delayMs) == [100, 100])
    }

    @Test func aGIF87aFileWithSeveralImagesIsAnAnimation() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette, version: "GIF87a")
        gif.image(width: 1, height: 1, pixels: [2])
        gif.image(width: 1, height: 1, pixels: [3])
        gif.trailer()
        #expect(decodeAll(gif).frames.map(pixelWords) == [[R], [G]])
    }

    @Test func delaysOfZeroAndOneCentisecondPlayAtOneHundredMilliseconds() {
        let policy = DelayPolicy()
        #expect([0, 1, 2, 5, 100].map(policy.milliseconds(forCentiseconds:)) == [100, 100, 20, 50, 1000])
        let raw = DelayPolicy(minimumMs: 0)
        #expect([0, 1, 2].map(raw.milliseconds(forCentiseconds:)) == [0, 10, 20])
        let slower = DelayPolicy(minimumMs: 60)
        #expect([5, 6].map(slower.milliseconds(forCentiseconds:)) == [100, 60])
    }

    @Test func theLoopCountAndCommentAreReadWhereverTheyAre() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.image(width: 1, height: 1, pixels: [1])
        gif.comment(Array("first".utf8))
        gif.loop(3)
        gif.comment(Array("héllo".utf8))
        gif.trailer()
        let info = decodeAll(gif).info
        #expect(info?.loopCount == 3)
        #expect(info?.comment == "héllo")
    }

    @Test func aCommentThatIsNotUTF8IsReadAsLatin1() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.comment([0x63, 0x61, 0x66, 0xE9])
        gif.image(width: 1, height: 1, pixels: [1])
        gif.trailer()
        #expect(decodeAll(gif).info?.comment == "café")
    }

    @Test func aFileWithNoImageGivesOneTransparentFrame() {
        var gif = GIFBuilder(width: 3, height: 2, colors: palette)
        gif.trailer()
        let result = decodeAll(gif)
        #expect(result.error == nil)
        #expect(result.frames.map(pixelWords) == [[T, T, T, T, T, T]])
        #expect(result.frames.map(\.images) == [0..<0])
        #expect(result.info?.frameCount == 1)
    }

    @Test func aFrameKeptByTheCallerIsNotChangedByLaterFrames() throws {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.control(delay: 10)
        gif.image(width: 1, height: 1, pixels: [2])
        gif.control(delay: 10)
        gif.image(width: 1, height: 1, pixels: [3])
        gif.trailer()
        let decoder = try GIFDecoder(bytes: gif.bytes)
        let first = try #require(try decoder.nextFrame())
        let second = try #require(try decoder.nextFrame())
        #expect(pixelWords(first) == [R])
        #expect(pixelWords(second) == [G])
        #expect(try decoder.nextFrame() == nil)
        #expect(try decoder.nextFrame() == nil)
    }

    // MARK: Broken files

    @Test func aFileCutShortGivesTheFramesBeforeTheCutThenAnError() throws {
        var gif = GIFBuilder(width: 4, height: 4, colors: palette)
        for color in [2, 3, 4] as [UInt8] {
            gif.control(delay: 10)
            gif.image(width: 4, height: 4, pixels: [UInt8](repeating: color, count: 16))
        }
        gif.trailer()
        let cut = Array(gif.bytes.dropLast(6))
        let decoder = try GIFDecoder(bytes: cut)
        #expect(decoder.info.imageCount == 2)
        #expect(pixelWords(try #require(try decoder.nextFrame())).first == R)
        #expect(pixelWords(try #require(try decoder.nextFrame())).first == G)
        #expect(throws: GIFError(.truncated, "the file ends inside image 3's data", offset: cut.count)) {
            try decoder.nextFrame()
        }
        #expect(try decoder.nextFrame() == nil)
    }

    @Test func everyCutOfAFileDecodesOrFailsCleanly() {
        var gif = GIFBuilder(width: 3, height: 3, colors: palette)
        gif.loop(0)
        gif.comment(Array("cut me".utf8))
        for color in [2, 3] as [UInt8] {
            gif.control(delay: 10, disposal: 3, transparent: 0)
            gif.image(left: 1, top: 1, width: 2, height: 2, pixels: [color, 0, color, color], interlaced: color == 3)
        }
        gif.trailer()
        for length in 0..<gif.bytes.count {
            let result = GIFDecoder.decodeAll(bytes: Array(gif.bytes.prefix(length)))
            #expect(result.frames.count <= 2)
            // A cut between blocks only loses the trailer; any other cut is an error.
            #expect(result.error != nil || !result.frames.isEmpty, "cut at \(length)")
        }
        let whole = GIFDecoder.decodeAll(bytes: gif.bytes)
        #expect(whole.error == nil)
        #expect(whole.frames.map(pixelWords) == [[T, T, T, T, R, T, T, R, R], [T, T, T, T, G, T, T, G, G]])
    }

    @Test func aMissingTrailerIsNotAnError() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.image(width: 1, height: 1, pixels: [1])
        let result = decodeAll(gif)
        #expect(result.error == nil)
        #expect(result.frames.count == 1)
    }

    @Test func anUnknownBlockEndsTheFileWithAnError() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.control(delay: 10)
        gif.image(width: 1, height: 1, pixels: [1])
        gif.raw([0x99])
        let result = decodeAll(gif)
        #expect(result.frames.count == 1)
        #expect(result.error?.kind == .corrupt)
        #expect(result.error?.message == "unexpected byte 0x99 where a block should start")
    }

    @Test func anInvalidLZWCodeFailsAfterTheFramesBeforeIt() {
        var gif = GIFBuilder(width: 2, height: 2, colors: palette)
        gif.control(delay: 10)
        gif.image(width: 2, height: 2, pixels: [1, 1, 1, 1])
        gif.control(delay: 10)
        // Clear (4), then 7: no previous code, and not a literal.
        gif.raw([0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2, 1, 0x3C, 0, 0x3B])
        let result = decodeAll(gif)
        #expect(result.frames.map(pixelWords) == [[W, W, W, W]])
        #expect(result.error?.kind == .corrupt)
        #expect(result.error?.message.hasPrefix("image 2: invalid LZW code") == true)
    }

    @Test func notAGIFIsRejectedAtOnce() {
        #expect(throws: GIFError.self) { _ = try GIFDecoder(bytes: []) }
        #expect(GIFDecoder.decodeAll(bytes: Array("GIF90a".utf8) + [1, 0, 1, 0, 0, 0, 0]).error?.code == "not_gif")
        #expect(GIFDecoder.decodeAll(bytes: Array("<html>".utf8)).error?.code == "not_gif")
        #expect(GIFDecoder.decodeAll(bytes: Array("GIF89a".utf8) + [1, 0]).error?.kind == .truncated)
    }

    @Test func oddLZWCodeSizesDecodeOrFailWithoutCrashing() {
        // Code sizes 0 and 1 are below the spec's 2 (giflib takes them);
        // 9 to 11 go to LZWDecoder; 12 and more are refused.
        for codeSize in [0, 1, 9, 10, 11, 12, 200] {
            var gif = GIFBuilder(width: 3, height: 2, colors: palette)
            gif.image(width: 3, height: 2, pixels: [1, 0, 1, 1, 0, 1], codeSize: max(codeSize, 2))
            gif.trailer()
            var bytes = gif.bytes
            bytes[13 + 3 * 8 + 10] = UInt8(codeSize)
            let result = GIFDecoder.decodeAll(bytes: bytes)
            if codeSize >= 12 {
                #expect(result.error?.message == "image 1: LZW minimum code size \(codeSize) is out of range (at most 11)")
            } else if codeSize >= 9 {
                #expect(result.frames.map(pixelWords) == [[W, K, W, W, K, W]], "code size \(codeSize)")
            }
            #expect(result.frames.count + (result.error == nil ? 0 : 1) >= 1, "code size \(codeSize)")
        }
    }

    @Test func anEmptyLogicalScreenIsRejected() {
        var gif = GIFBuilder(width: 0, height: 5, colors: palette)
        gif.trailer()
        #expect(decodeAll(gif).error?.code == "decode_failed")
    }

    // MARK: Limits

    @Test func aCanvasOverTheLimitIsRefusedBeforeAnythingIsAllocated() {
        var gif = GIFBuilder(width: 65535, height: 65535, colors: palette)
        gif.trailer()
        let result = decodeAll(gif)
        #expect(result.info == nil)
        #expect(result.error?.kind == .tooLarge)
        var small = GIFBuilder(width: 101, height: 100, colors: palette)
        small.trailer()
        #expect(decodeAll(small, DecodeOptions(limits: DecodeLimits(maxCanvasPixels: 10_000))).error?.kind == .tooLarge)
        #expect(decodeAll(small, DecodeOptions(limits: DecodeLimits(maxCanvasPixels: 10_100))).error == nil)
    }

    @Test func thePixelBudgetEndsTheFramesBeforeItIsPassed() {
        var gif = GIFBuilder(width: 10, height: 10, colors: palette)
        for _ in 0..<5 {
            gif.control(delay: 10)
            gif.image(width: 1, height: 1, pixels: [1])
        }
        gif.trailer()
        // Each frame costs 100 pixels and each image 1: three frames fit in 310.
        let result = decodeAll(gif, DecodeOptions(limits: DecodeLimits(maxTotalPixels: 310)))
        #expect(result.frames.count == 3)
        #expect(result.error?.kind == .tooLarge)
        #expect(result.error?.code == "too_large")
    }

    @Test func anImageTooLargeForTheBudgetIsNotDecoded() {
        var gif = GIFBuilder(width: 4, height: 4, colors: palette)
        gif.image(width: 1000, height: 1000, pixels: [1])
        gif.trailer()
        let result = decodeAll(gif, DecodeOptions(limits: DecodeLimits(maxTotalPixels: 3999)))
        #expect(result.frames.isEmpty)
        #expect(result.error?.kind == .tooLarge)
        // Only the rows that reach the canvas count: 1000 × 4.
        #expect(decodeAll(gif, DecodeOptions(limits: DecodeLimits(maxTotalPixels: 4016))).frames.count == 1)
    }

    @Test func theImageCountIsLimited() {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        for _ in 0..<5 {
            gif.control(delay: 10)
            gif.image(width: 1, height: 1, pixels: [1])
        }
        gif.trailer()
        let result = decodeAll(gif, DecodeOptions(limits: DecodeLimits(maxImages: 3)))
        #expect(result.frames.count == 3)
        #expect(result.error?.kind == .tooLarge)
    }

    // MARK: Files

    @Test func readsAFileAndSaysWhenItIsMissing() throws {
        var gif = GIFBuilder(width: 1, height: 1, colors: palette)
        gif.image(width: 1, height: 1, pixels: [2])
        gif.trailer()
        let path = NSTemporaryDirectory() + "/gifengine-\(UUID().uuidString).gif"
        try Data(gif.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = try GIFDecoder(contentsOfFile: path)
        #expect(try decoder.nextFrame().map(pixelWords) == [R])
                do {
            _ = try GIFDecoder(contentsOfFile: path + ".missing")
        } catch {
            #expect(error.code == "not_found")
        }
        var limits = DecodeLimits()
        limits.maxFileBytes = 10
        do {
            _ = try GIFDecoder(contentsOfFile: path, options: DecodeOptions(limits: limits))
            Issue.record("a file over --max-bytes was read")
        } catch {
            #expect(error.code == "too_large")
        }
    }
}
