import Foundation
import Testing
import TestSupport
@testable import GIFEngine

/// `GIFDecoder.nextFrame(scaledBy:)` scales an image that covers the canvas
/// with opaque pixels from its color indices, without painting it: the bytes
/// must be those of `scale(nextFrame())`, frame for frame, fault for fault.
@Suite struct ScaledFramesTests {
    /// Canvas sizes the frames are scaled to: exact ratios, fractional ones
    /// (rows of partial weight), enlarging, and one column.
    static func targets(_ width: Int, _ height: Int) -> [Scaler] {
        [
            Scaler(sourceWidth: width, sourceHeight: height, width: max(1, width / 2), height: max(1, height / 2)),
            Scaler(sourceWidth: width, sourceHeight: height, width: 7, height: 5),
            Scaler(sourceWidth: width, sourceHeight: height, width: width * 2 + 1, height: height + 3, background: nil),
            Scaler(sourceWidth: width, sourceHeight: height, width: 1, height: 3, background: RGBColor(red: 30, green: 144, blue: 7)),
        ]
    }

    // MARK: The scaler alone

    @Test func indicesScaleToTheBytesOfTheirPaintedFrame() {
        var random = SplitMix64(seed: 77)
        let sizes = [(320, 240, 64, 48), (320, 240, 61, 46), (7, 3, 80, 60), (1, 1, 1, 1), (3, 600, 2, 2),
                     (1, 513, 1, 2), (1000, 2, 3, 1), (17, 13, 5, 4), (498, 280, 80, 45)]
        var cases = sizes
        for _ in 0..<150 {
            cases.append((Int.random(in: 1...60, using: &random), Int.random(in: 1...60, using: &random),
                          Int.random(in: 1...40, using: &random), Int.random(in: 1...40, using: &random)))
        }
        for (sourceWidth, sourceHeight, width, height) in cases {
            let colors = (0..<256).map { _ in UInt32(UInt32.random(in: 0...0xFF_FFFF, using: &random) | 0xFF00_0000).littleEndian }
            // A few colors only, or all of them: runs of one color and noise.
            let used = [2, 16, 256][Int.random(in: 0..<3, using: &random)]
            let indices = (0..<(sourceWidth * sourceHeight)).map { _ in UInt8(Int.random(in: 0..<used, using: &random)) }
            var painted = [UInt8](repeating: 0, count: indices.count * 4)
            for (pixel, index) in indices.enumerated() {
                withUnsafeBytes(of: colors[Int(index)]) { bytes in
                    for lane in 0..<4 { painted[pixel * 4 + lane] = bytes[lane] }
                }
            }
            for background in [RGBColor?.none, .black] {
                let scaler = Scaler(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, background: background)
                let fromIndices = indices.withUnsafeBufferPointer { indices in
                    colors.withUnsafeBufferPointer { scaler.scale(indices: indices.baseAddress!, colors: $0.baseAddress!) }
                }
                #expect(fromIndices == scaler.scale(painted), "\(sourceWidth)×\(sourceHeight)→\(width)×\(height), \(used) colors")
            }
        }
    }

    // MARK: Made GIFs

    @Test func fullOpaqueFramesAreScaledFromTheirIndices() throws {
        var gif = GIFBuilder(width: 12, height: 9, colors: Self.palette(16))
        for frame in 0..<4 {
            gif.control(delay: 4)
            gif.image(width: 12, height: 9, pixels: Self.noise(12 * 9, colors: 16, seed: frame))
        }
        gif.trailer()
        let decoder = try expectSameFrames(gif.bytes, count: 4)
        #expect(decoder?.coveringImages == 4)
    }

    @Test func aPartialImageOverACoveringOneSeesItPainted() throws {
        // Frame 2 draws a transparent-keyed patch over frame 1's pixels, then
        // frame 3 clears its patch (disposal 2) over them.
        var gif = GIFBuilder(width: 10, height: 8, colors: Self.palette(8))
        gif.control(delay: 4)
        gif.image(width: 10, height: 8, pixels: Self.noise(80, colors: 8, seed: 1))
        gif.control(delay: 4, disposal: 2, transparent: 0)
        gif.image(left: 2, top: 3, width: 4, height: 3, pixels: [0, 5, 5, 0, 6, 0, 6, 0, 7, 7, 0, 7])
        gif.control(delay: 4)
        gif.image(left: 7, top: 0, width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        gif.trailer()
        let decoder = try expectSameFrames(gif.bytes, count: 3)
        #expect(decoder?.coveringImages == 1)
    }

    @Test func transparentRestoringAndClippedImagesArePainted() throws {
        var gif = GIFBuilder(width: 6, height: 6, colors: Self.palette(4))
        gif.control(delay: 4)
        gif.image(width: 6, height: 6, pixels: Self.noise(36, colors: 4, seed: 2))
        // Covers the canvas but has a transparent index: painted.
        gif.control(delay: 4, transparent: 3)
        gif.image(width: 6, height: 6, pixels: Self.noise(36, colors: 4, seed: 3))
        // Covers the canvas but restores what was under it afterwards: painted.
        gif.control(delay: 4, disposal: 3)
        gif.image(width: 6, height: 6, pixels: Self.noise(36, colors: 4, seed: 4))
        // Wider than the canvas (clipped): painted.
        gif.control(delay: 4)
        gif.image(width: 7, height: 6, pixels: Self.noise(42, colors: 4, seed: 5))
        // Taller than the canvas and interlaced: covering; then one that is
        // taller and not interlaced.
        gif.control(delay: 4)
        gif.image(width: 6, height: 9, pixels: Self.noise(54, colors: 4, seed: 6), interlaced: true)
        gif.control(delay: 4)
        gif.image(width: 6, height: 8, pixels: Self.noise(48, colors: 4, seed: 7))
        gif.trailer()
        let decoder = try expectSameFrames(gif.bytes, count: 6)
        #expect(decoder?.coveringImages == 3)
    }

    @Test func imagesMergedIntoOneFrameAreComposited() throws {
        // Two images without a delay make one frame: a covering one, then a
        // patch over it; then a covering one over a patch.
        var gif = GIFBuilder(width: 8, height: 4, colors: Self.palette(8))
        gif.image(width: 8, height: 4, pixels: Self.noise(32, colors: 8, seed: 8))
        gif.control(delay: 5)
        gif.image(left: 1, top: 1, width: 2, height: 2, pixels: [7, 6, 5, 4])
        gif.image(left: 0, top: 0, width: 2, height: 2, pixels: [1, 1, 1, 1])
        gif.control(delay: 5)
        gif.image(width: 8, height: 4, pixels: Self.noise(32, colors: 8, seed: 9))
        gif.trailer()
        let decoder = try expectSameFrames(gif.bytes, count: 2)
        #expect(decoder?.coveringImages == 2)
    }

    @Test func indicesPastTheColorTableAreOpaqueBlack() throws {
        // A two-color local table, pixels up to index 7.
        var gif = GIFBuilder(width: 5, height: 5)
        gif.control(delay: 4)
        gif.image(width: 5, height: 5, pixels: Self.noise(25, colors: 8, seed: 10), colors: [[200, 10, 10], [10, 200, 10]], codeSize: 3)
        gif.trailer()
        let decoder = try expectSameFrames(gif.bytes, count: 1)
        #expect(decoder?.coveringImages == 1)
    }

    @Test func aCoveringImageCutShortIsDrawnTheUsualWay() throws {
        // Frame 2's data ends halfway: giflib stops, the fallback decoder
        // draws the rows that came over frame 1, which was held as indices.
        var gif = GIFBuilder(width: 16, height: 16, colors: Self.palette(64))
        gif.control(delay: 4)
        gif.image(width: 16, height: 16, pixels: Self.noise(256, colors: 64, seed: 11))
        gif.control(delay: 4)
        var second = GIFBuilder(width: 16, height: 16, colors: Self.palette(64))
        second.image(width: 16, height: 16, pixels: Self.noise(256, colors: 64, seed: 12))
        let image = Array(second.bytes.dropFirst(13 + 64 * 3))
        gif.raw(Array(image.prefix(image.count / 2)))
        let decoder = try expectSameFrames(gif.bytes, count: nil, fault: true)
        #expect(decoder?.coveringImages == 1)
    }

    @Test func aBudgetPassedFailsAsItDoes() throws {
        var gif = GIFBuilder(width: 10, height: 10, colors: Self.palette(4))
        for frame in 0..<5 {
            gif.control(delay: 4)
            gif.image(width: 10, height: 10, pixels: Self.noise(100, colors: 4, seed: 20 + frame))
        }
        gif.trailer()
        var options = DecodeOptions()
        options.limits.maxTotalPixels = 450
        try expectSameFrames(gif.bytes, count: 2, fault: true, options: options)
    }

    // MARK: The corpora

    @Test(.enabled(if: Corpus.use(Corpus.pygif), Comment(rawValue: Corpus.absentReason(Corpus.pygif))))
    func everyConformanceFileGivesTheSameFrames() throws {
        for folder in [Corpus.pygif, Corpus.wuffs] {
            for file in try Corpus.files(in: folder, suffix: ".gif") {
                try expectSameFrames(Corpus.bytes("\(folder)/\(file)"), count: nil, fault: nil, label: file, targets: 2)
            }
        }
    }

    @Test(.enabled(if: Corpus.use(Corpus.bad), Comment(rawValue: Corpus.absentReason(Corpus.bad))))
    func everyCorruptFileGivesTheSameFramesAndFault() throws {
        let base = Corpus.path(Corpus.bad)
        let files = (FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".gif") }.sorted()
        #expect(files.count == 284)
        for file in files {
            try expectSameFrames(Corpus.bytes("\(Corpus.bad)/\(file)"), count: nil, fault: nil, label: file, targets: 2)
        }
    }

    // MARK: Helpers

    /// Decodes `bytes` both ways at every target size and expects the same
    /// scaled frames (at the first `targets` sizes), then the same fault (or none); returns the last
    /// decoder that scaled, for its counts.
    @discardableResult
    private func expectSameFrames(_ bytes: [UInt8], count: Int?, fault: Bool? = false, options: DecodeOptions = DecodeOptions(),
                                  label: String = "", targets: Int = 4, sourceLocation: SourceLocation = #_sourceLocation) throws -> GIFDecoder? {
        var last: GIFDecoder?
        guard let opened = try? GIFDecoder(bytes: bytes, options: options) else {
            #expect(count == nil, "\(label): the file does not open", sourceLocation: sourceLocation)
            return nil
        }
        for (number, scaler) in Self.targets(opened.info.width, opened.info.height).prefix(targets).enumerated() {
            let plain = try GIFDecoder(bytes: bytes, options: options)
            let scaling = try GIFDecoder(bytes: bytes, options: options)
            var frames = 0
            var plainFault: GIFError?, scaledFault: GIFError?
            while true {
                var expected: Frame?, got: Frame?
                do { expected = try plain.nextFrame().map(scaler.scale) } catch { plainFault = error }
                do { got = try scaling.nextFrame(scaledBy: scaler) } catch { scaledFault = error }
                #expect(got == expected, "\(label) frame \(frames + 1), target \(number)", sourceLocation: sourceLocation)
                guard expected != nil, got != nil else { break }
                frames += 1
            }
            #expect(plainFault?.description == scaledFault?.description, "\(label), target \(number)", sourceLocation: sourceLocation)
            if let count { #expect(frames == count, "\(label), target \(number)", sourceLocation: sourceLocation) }
            if let fault { #expect((plainFault != nil) == fault, "\(label): \(String(describing: plainFault))", sourceLocation: sourceLocation) }
            last = scaling
        }
        return last
    }

    private static func palette(_ count: Int) -> [[UInt8]] {
        (0..<count).map { index -> [UInt8] in
            let red = UInt8(truncatingIfNeeded: index * 37), green = UInt8(truncatingIfNeeded: index * 91 + 40)
            return [red, green, 255 &- UInt8(truncatingIfNeeded: index * 53)]
        }
    }

    private static func noise(_ count: Int, colors: Int, seed: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(seed + 1))
        return (0..<count).map { _ in UInt8(Int.random(in: 0..<colors, using: &random)) }
    }
}
