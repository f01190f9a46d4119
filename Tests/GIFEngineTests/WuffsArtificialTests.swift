import Testing
import TestSupport
@testable import GIFEngine

// Wuffs' hand-made edge cases (../shared/corpus/gif-suite/wuffs-artificial-gif).
// Each .make-artificial.txt note says how browsers and other decoders treat
// the file; the expectations here follow the issue where they choose (clip
// frames to the screen, as gdk-pixbuf does; clear to transparent) and
// browsers elsewhere. Pixels are written `rrggbb`, `....` for transparent.

/// A frame's pixels as `rrggbb` words, `....` where alpha is 0.
func pixelWords(_ frame: Frame) -> [String] {
    let rgba = frame.rgba
    return stride(from: 0, to: rgba.count - 3, by: 4).map { at in
        if rgba[at + 3] == 0 { return "...." }
        return RGBColor(red: rgba[at], green: rgba[at + 1], blue: rgba[at + 2]).description
            + (rgba[at + 3] == 255 ? "" : "/\(rgba[at + 3])")
    }
}

@Suite(.enabled(if: Corpus.use(Corpus.wuffs), Comment(rawValue: Corpus.absentReason(Corpus.wuffs))))
struct WuffsArtificialTests {
    func decode(_ name: String, grouping: FrameGrouping = .displayed) throws -> (info: GIFInfo?, frames: [Frame], error: GIFError?) {
        GIFDecoder.decodeAll(bytes: try Corpus.bytes("\(Corpus.wuffs)/\(name).gif"), options: DecodeOptions(grouping: grouping))
    }

    @Test func allFifteenCasesAreCovered() throws {
        let files = try Corpus.files(in: Corpus.wuffs, suffix: ".gif")
        #expect(files.count == 15)
        var outcomes: [String] = []
        for file in files {
            let result = GIFDecoder.decodeAll(bytes: try Corpus.bytes("\(Corpus.wuffs)/\(file)"))
            #expect(result.error == nil, "\(file): \(String(describing: result.error))")
            outcomes.append("\(file): \(result.frames.count) frame(s)")
        }
        print("wuffs-artificial-gif: all \(files.count) decode without error: \(outcomes.joined(separator: ", "))")
    }

    @Test func onlyDataEndingEarlyTakesTheFallbackDecoder() throws {
        // giflib fails a line whose data ends early without saying how many
        // pixels came; LZWDecoder draws them, as browsers do.
        var taken: [String] = []
        for file in try Corpus.files(in: Corpus.wuffs, suffix: ".gif") {
            let decoder = try GIFDecoder(bytes: try Corpus.bytes("\(Corpus.wuffs)/\(file)"))
            while try decoder.nextFrame() != nil {}
            if !decoder.fallbacks.isEmpty { taken.append(file) }
        }
        #expect(taken == ["pixel-data-none.gif", "pixel-data-not-enough.gif"])
    }

    @Test func restoreBackgroundClearsToTransparentNotToTheBackgroundColor() throws {
        let result = try decode("background-color")
        #expect(result.info?.loopCount == 1)
        #expect(result.frames.map(pixelWords) == [
            ["800000", "8000c1", "....", "...."],
            ["....", "....", "80c200", "...."],
        ])
        #expect(result.frames.map(\.delayMs) == [100, 200])
    }

    @Test func framesOutOfBoundsAreClippedToTheScreen() throws {
        // Policy 1 of the note (gdk-pixbuf's; the issue's "clipped to the logical screen").
        let result = try decode("frame-out-of-bounds", grouping: .everyImage)
        #expect(result.info.map { [$0.width, $0.height] } == [2, 2])
        #expect(result.frames.map(pixelWords) == [
            ["....", "1100ff", "....", "...."],
            ["....", "1100ff", "0088ff", "0099ff"],
            ["....", "1100ff", "0088ff", "0099ff"],
            ["....", "1100ff", "0088ff", "0099ff"],
        ])
    }

    @Test func metadataExtensionsAreSkippedAndTheLoopCountRead() throws {
        for name in ["metadata-empty", "metadata-full"] {
            let result = try decode(name)
            #expect(result.info?.loopCount == 2000, "\(name)")
            #expect(result.frames.map(pixelWords) == [["....", "1100ff", "....", "...."]], "\(name)")
        }
    }

    @Test func theLastOfSeveralGraphicControlsWins() throws {
        let result = try decode("multiple-graphic-controls")
        #expect(result.frames.map(\.delayMs) == [300])
        #expect(result.frames.map(pixelWords) == [["0000ff"]])
    }

    @Test func theLastOfSeveralLoopCountsWins() throws {
        let result = try decode("multiple-loop-counts")
        #expect(result.info?.loopCount == 40)
        #expect(result.frames.count == 4)
    }

    @Test func aSmallInterlacedFrameFillsOnlyItsRectangle() throws {
        let words = try decode("small-frame-interlaced").frames.map(pixelWords)
        var expected = [String](repeating: "....", count: 25)
        expected[2 * 5 + 3] = "0000ff"
        #expect(words == [expected])
    }

    @Test func theTransparentIndexLeavesThePreviousFrameShowing() throws {
        let result = try decode("transparent-index")
        #expect(result.frames.map(pixelWords) == [
            ["800000", "900000", "a00000", "b00000", "c00000", "d00000", "e00000", "f00000"],
            ["800000", "900000", "a00000", "b00000", "c00000", "0000ff", "e00000", "000055"],
        ])
        #expect(result.frames.map(\.delayMs) == [100, 200])
    }

    /// The frames' pixels of the cases that are only that: two images without
    /// delays make one frame and the second has no palette (empty-palette);
    /// no frame is one transparent frame; missing pixel data leaves the pixels
    /// untouched; data past the last pixel is ignored, even bad LZW.
    @Test(arguments: [
        ("empty-palette", FrameGrouping.displayed, [["000000"]]),
        ("empty-palette", .everyImage, [["0000ff"], ["000000"]]),
        ("no-frames", .displayed, [["...."]]),
        ("pixel-data-none", .displayed, [["....", "....", "....", "...."]]),
        ("pixel-data-not-enough", .displayed, [["0000ff", "....", "....", "...."]]),
        ("pixel-data-too-much-bad-lzw", .displayed, [["0000ff", "0000ff", "0000ff", "0000ff"]]),
        ("pixel-data-too-much-good-lzw", .displayed, [["0000ff", "0000ff", "0000ff", "0000ff"]]),
        ("zero-width-frame", .displayed, [["....", "....", "....", "...."]]),
    ])
    func aCaseGivesTheseFrames(name: String, grouping: FrameGrouping, frames: [[String]]) throws {
        #expect(try decode(name, grouping: grouping).frames.map(pixelWords) == frames)
    }
}
