// The perceptual hash (PerceptualHash, ClipHash): its text form, what it
// refuses, that it comes from the canvas as decoded, and the measurement
// that chose ClipHash.threshold (docs/gif-engine.md, "Same clip, another id").

import GIFEngine
import Testing
import TestSupport

@Suite struct PerceptualHashTests {
    /// The hashes of a GIF's bytes.
    func clipHash(_ bytes: [UInt8]) throws -> ClipHash? {
        try ClipHash.make(from: GIFDecoder(bytes: bytes))
    }

    @Test func isWrittenAsSixteenHexDigitsAndReadBack() throws {
        let hash = PerceptualHash(bits: 0x0123_4567_89AB_CDEF)
        #expect(hash.hex == "0123456789abcdef")
        #expect(PerceptualHash(hex: "0123456789ABCDEF") == hash)
        #expect(PerceptualHash(hex: "0123456789abcdef")?.distance(to: hash) == 0)
        #expect(PerceptualHash(bits: 0).distance(to: PerceptualHash(bits: .max)) == 64)
    }

    @Test func refusesAnythingButSixteenHexDigits() {
        for bad in ["", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", "+123456789abcdef", "0x23456789abcdef", " 123456789abcdef"] {
            #expect(PerceptualHash(hex: bad) == nil, "\(bad)")
        }
    }

    @Test func aCanvasTooSmallOrTooFlatHasNoHash() throws {
        // 8×8: under the 18×16 pixels a 9×8 thumbnail needs.
        #expect(try clipHash(PlayGIF.animated(delays: [5, 5, 5])) == nil)
        // A flat picture: every cell alike.
        var flat = GIFBuilder(width: 64, height: 48, colors: [[120, 120, 120], [0, 0, 0]])
        flat.control(delay: 10)
        flat.image(width: 64, height: 48, pixels: [UInt8](repeating: 0, count: 64 * 48))
        flat.trailer()
        #expect(try clipHash(flat.bytes) == nil)
    }

    @Test func theSamePixelsGiveTheSameHashDecodedWholeOrScaledFromIndices() throws {
        let scene = ClipSet.scenes(count: 1)[0]
        let bytes = ClipSet.original(scene)
        let whole = try #require(try clipHash(bytes))
        // The player's way: frames scaled for a terminal, hashed from the canvas (or the indices) all the same.
        for (columns, rows) in [(80, 24), (20, 6)] {
            let decoder = try GIFDecoder(bytes: bytes)
            let scaler = Scaler.fitting(sourceWidth: decoder.info.width, sourceHeight: decoder.info.height, columns: columns, rows: rows)
            var maker = ClipHash.Maker()
            while maker.wantsNext, let frame = try decoder.nextFrame(scaledBy: scaler) {
                maker.frame(delayMs: frame.delayMs, hash: decoder.frameHash)
            }
            #expect(maker.hash == whole, "\(columns)x\(rows)")
        }
    }

    /// A frame's hashes, both `bits`.
    func frame(_ bits: UInt64) -> FrameHash { FrameHash(gradient: PerceptualHash(bits: bits), cosine: PerceptualHash(bits: bits)) }

    @Test func theLaterFrameIsTheOneOnScreenAt250Milliseconds() {
        var maker = ClipHash.Maker()
        var asked: [Int] = []
        for (index, delay) in [100, 100, 100, 100].enumerated() {
            maker.frame(delayMs: delay) {
                asked.append(index)
                return frame(UInt64(index + 1))
            }
        }
        #expect(asked == [0, 2])
        #expect(maker.hash == ClipHash(first: frame(1), later: frame(3)))
        // A clip over before 250 ms: its last frame stands for the later one.
        var short = ClipHash.Maker()
        short.frame(delayMs: 100) { frame(1) }
        short.frame(delayMs: 100) { frame(2) }
        short.ended { frame(2) }
        #expect(short.hash == ClipHash(first: frame(1), later: frame(2)))
    }

    /// Issue 28 #7: a clip that opens on blank frames had no hash at all.
    @Test func theFirstFrameHashedIsTheFirstWithDetailAndTheLaterOne250MillisecondsAfterIt() {
        var maker = ClipHash.Maker()
        var asked: [Int] = []
        for (index, delay) in [100, 100, 100, 100, 100, 100].enumerated() {
            maker.frame(delayMs: delay) {
                asked.append(index)
                return index < 2 ? nil : frame(UInt64(index + 1))
            }
        }
        #expect(asked == [0, 1, 2, 4])
        #expect(maker.hash == ClipHash(first: frame(3), later: frame(5)))
        // Blank for longer than the opening looked at: no hash, and no more frames asked for.
        var blank = ClipHash.Maker()
        var frames = 0
        while blank.wantsNext, frames < 1000 {
            blank.frame(delayMs: 100) { nil }
            frames += 1
        }
        #expect(blank.hash == nil && frames == ClipHash.detailWithinMs / 100 + 2)
    }

    /// The measurement set of bench/clip-hash, smaller: every copy of a clip
    /// under another id is the same clip, and no different clip is, at the
    /// threshold chosen (bench/clip-hash --scenes 30 gives the figures in the docs).
    @Test func everyCopyMatchesItsOriginalAndNoDifferentClipDoes() throws {
        let scenes = ClipSet.measurementScenes(count: 1)
        var originals: [ClipHash] = []
        var others: [(name: String, hash: ClipHash)] = []
        for scene in scenes {
            let clip = ClipSet.Clip(scene)
            let original = try #require(try clipHash(clip.original()), "\(scene.name)")
            originals.append(original)
            for copy in ClipSet.Copy.allCases {
                let hash = try #require(try clipHash(clip.copy(copy)), "\(scene.name) \(copy.rawValue)")
                #expect(hash.isSameClip(as: original), "\(scene.name) \(copy.rawValue): \(hash.gradientDistance(to: original)),\(hash.cosineDistance(to: original)) bits apart")
            }
            for kind in ClipSet.Lookalike.allCases {
                let other = ClipSet.lookalike(kind, of: scene)
                let hash = try #require(try clipHash(ClipSet.original(other)), "\(other.name)")
                #expect(!hash.isSameClip(as: original), "\(other.name): \(hash.distance(to: original)) bits from \(scene.name)")
                others.append((other.name, hash))
            }
        }
        for (index, first) in originals.enumerated() {
            for second in originals[(index + 1)...] { #expect(!first.isSameClip(as: second)) }
        }
        for (index, one) in others.enumerated() {
            for other in others[(index + 1)...] { #expect(!one.hash.isSameClip(as: other.hash), "\(one.name), \(other.name)") }
        }
    }

    /// Issue 28 #7: two unrelated pictures lit from one side, an orange
    /// sunset with a ball and a grey gradient with a spider, both had the
    /// difference hash ffffffffffffffff (every cell brighter than the next),
    /// and the spider was skipped as the same clip as the sunset.
    @Test func twoPicturesLitFromOneSideAreNotTheSameClip() throws {
        let sunset = ClipSet.Scene(name: "sunset", seed: 28, from: (255, 190, 80), to: (70, 20, 10), direction: 0, blobs: [],
                                   shapes: [ClipSet.Shape(kind: .disc, color: (250, 120, 40), size: 90, x: 300, y: 620, dx: 0, dy: -60)], grain: 4)
        let spider = ClipSet.Scene(name: "spider", seed: 29, from: (235, 235, 225), to: (25, 25, 35), direction: 0, blobs: [],
                                   shapes: [ClipSet.Shape(kind: .spider, color: (90, 80, 70), size: 110, x: 640, y: 380, dx: 40, dy: 30)], grain: 4)
        let one = try #require(try clipHash(ClipSet.original(sunset)))
        let other = try #require(try clipHash(ClipSet.original(spider)))
        // What made them one clip: the difference hashes alike.
        #expect(one.gradientDistance(to: other) <= 11, "\(one.first.gradient) \(other.first.gradient)")
        #expect(!one.isSameClip(as: other), "\(one.gradientDistance(to: other)),\(one.cosineDistance(to: other)) bits apart")
        // And every pair of the set's scenes lit from one side.
        let hashes = try ClipSet.sidelitScenes(count: 4).map { try #require(try clipHash(ClipSet.original($0)), "\($0.name)") }
        for (index, first) in hashes.enumerated() {
            for second in hashes[(index + 1)...] { #expect(!first.isSameClip(as: second)) }
        }
    }

    /// Issue 28 #7: two copies of a clip that opens on blank frames were
    /// never found (its first frame, blank, had no hash).
    @Test func copiesOfAClipThatOpensOnBlankFramesAreFound() throws {
        for scene in ClipSet.blankScenes(count: 2) {
            let clip = ClipSet.Clip(scene)
            let original = try #require(try clipHash(clip.original()), "\(scene.name)")
            for copy in [ClipSet.Copy.requantized, .smaller, .blankOpening, .halfRate] {
                let hash = try #require(try clipHash(clip.copy(copy)), "\(scene.name) \(copy.rawValue)")
                #expect(hash.isSameClip(as: original), "\(scene.name) \(copy.rawValue)")
            }
        }
    }

    /// Issue 28 #7: on clips with fine moving detail, copies resized to 90 %
    /// and re-quantized to 32 colors were not found.
    @Test func onFineMovingDetailCopiesResizedOrRequantizedTo32ColorsAreFound() throws {
        for scene in ClipSet.fineScenes(count: 3) {
            let clip = ClipSet.Clip(scene)
            let original = try #require(try clipHash(clip.original()), "\(scene.name)")
            for copy in [ClipSet.Copy.smaller, .colors32] {
                let hash = try #require(try clipHash(clip.copy(copy)), "\(scene.name) \(copy.rawValue)")
                #expect(hash.isSameClip(as: original),
                        "\(scene.name) \(copy.rawValue): \(hash.gradientDistance(to: original)),\(hash.cosineDistance(to: original)) bits apart")
            }
        }
    }
}
