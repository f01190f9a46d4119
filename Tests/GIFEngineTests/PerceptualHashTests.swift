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

    @Test func theLaterFrameIsTheOneOnScreenAt250Milliseconds() {
        var maker = ClipHash.Maker()
        var asked: [Int] = []
        for (index, delay) in [100, 100, 100, 100].enumerated() {
            maker.frame(delayMs: delay) {
                asked.append(index)
                return PerceptualHash(bits: UInt64(index + 1))
            }
        }
        #expect(asked == [0, 2])
        #expect(maker.hash == ClipHash(first: PerceptualHash(bits: 1), later: PerceptualHash(bits: 3)))
        // A clip over before 250 ms: its last frame stands for the later one.
        var short = ClipHash.Maker()
        short.frame(delayMs: 100) { PerceptualHash(bits: 1) }
        short.frame(delayMs: 100) { PerceptualHash(bits: 2) }
        short.ended { PerceptualHash(bits: 2) }
        #expect(short.hash == ClipHash(first: PerceptualHash(bits: 1), later: PerceptualHash(bits: 2)))
    }

    /// The measurement set of bench/clip-hash, smaller: every copy of a clip
    /// under another id is the same clip, and no different clip is, at the
    /// threshold chosen (bench/clip-hash --scenes 30 gives the figures in the docs).
    @Test func everyCopyMatchesItsOriginalAndNoDifferentClipDoes() throws {
        let scenes = ClipSet.scenes(count: 4)
        var originals: [ClipHash] = []
        var others: [(name: String, hash: ClipHash)] = []
        for scene in scenes {
            let clip = ClipSet.Clip(scene)
            let original = try #require(try clipHash(clip.original()), "\(scene.name)")
            originals.append(original)
            for copy in ClipSet.Copy.allCases {
                let hash = try #require(try clipHash(clip.copy(copy)), "\(scene.name) \(copy.rawValue)")
                #expect(hash.isSameClip(as: original), "\(scene.name) \(copy.rawValue): \(hash.distance(to: original)) bits apart")
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
}
