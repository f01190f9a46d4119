import Foundation
import Testing
import TestSupport
@testable import GIFEngine

// The pygif GIF conformance suite (../shared/corpus/gif-suite/pygif): 84
// tests, 75 with expected frames. Each of those must give exactly the
// expected frames, pixel for pixel (pixels with alpha 0 compare equal), with
// the expected delays, loop count and comment. The 9 without expected frames
// ("may be rejected") must decode or fail cleanly.

/// Tests whose file is cut short right after a zero-sized image: the suite
/// expects the one transparent frame, and the decoder also reports the
/// truncation after it (as it must for any file cut short).
private let truncatedAfterExpectedFrames: [String: String] = [
    "image-zero-width": "its image descriptor is followed by the trailer byte, read as the LZW code size, then the end of the file",
    "image-zero-height": "its descriptor announces a local color table the file does not have",
    "image-zero-size": "its descriptor announces a local color table the file does not have",
]

/// A correction to one `.conf`, with the reason, printed with the results.
private let loopCountCorrections: [String: (loopCount: Int?, reason: String)] = [
    "gif87a-animation": (nil, """
        the .conf says loop-count = infinite, but the file has no NETSCAPE2.0 or ANIMEXTS1.0 \
        extension (pygif's make-test-suite passes loop_count=-1 without writing one, and writes \
        GIF89a for a test meant as GIF87a; pygif's own run-test-suite skips this test): checked \
        as no loop extension, the only reading the file allows
        """),
]

@Suite struct PygifSuiteTests {
    @Test(.enabled(if: Corpus.use(Corpus.pygif + "/TESTS"), Comment(rawValue: Corpus.absentReason(Corpus.pygif))))
    func everyTestWithExpectedFramesGivesThemPixelForPixel() throws {
        let names = try String(contentsOfFile: Corpus.path(Corpus.pygif + "/TESTS"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(names.count == 84)
        var passed: [String] = []
        var withFrames = 0
        var withoutFrames: [String] = []
        for name in names {
            let conf = PygifConf(text: try String(contentsOfFile: Corpus.path("\(Corpus.pygif)/\(name).conf"), encoding: .utf8))
            let data = try Corpus.bytes("\(Corpus.pygif)/\(conf.config["input"] ?? name + ".gif")")
            guard conf.frameCount > 0 else {
                // "May be rejected": any outcome but a crash or a wrong-sized frame.
                let result = GIFDecoder.decodeAll(bytes: data)
                for frame in result.frames {
                    #expect(frame.rgba.count == frame.width * frame.height * 4, "\(name)")
                }
                withoutFrames.append("\(name): " + (result.error.map { "rejected (\($0.code): \($0.message))" } ?? "\(result.frames.count) frame(s)"))
                continue
            }
            withFrames += 1
            let problems = try check(name: name, conf: conf, data: data)
            if problems.isEmpty {
                passed.append(name)
            } else {
                Issue.record("pygif \(name): \(problems.joined(separator: "; "))")
            }
        }
        print("pygif: \(passed.count)/\(withFrames) tests with expected frames pass (frames, pixels, delays, loop count, comment)")
        for (name, correction) in loopCountCorrections.sorted(by: { $0.key < $1.key }) {
            print("pygif: note: \(name): \(correction.reason)")
        }
        for (name, reason) in truncatedAfterExpectedFrames.sorted(by: { $0.key < $1.key }) {
            print("pygif: note: \(name): the expected frame, then a truncation error: \(reason)")
        }
        print("pygif: \(withoutFrames.count) tests without expected frames (may be rejected), all decoded or failed cleanly:")
        for line in withoutFrames { print("pygif:   \(line)") }
        #expect(withFrames == 75)
        #expect(passed.count == 75)
    }

    /// What is wrong with decoding test `name`; empty when it passes.
    private func check(name: String, conf: PygifConf, data: [UInt8]) throws -> [String] {
        var problems: [String] = []
        // force-animation = yes: "most readers interpret it as animated (a
        // default delay is added to each image)": every image is a frame.
        let options = DecodeOptions(grouping: conf.forceAnimation ? .everyImage : .displayed)
        let result = GIFDecoder.decodeAll(bytes: data, options: options)
        guard let info = result.info else { return ["not opened: \(result.error?.description ?? "?")"] }
        if let error = result.error, truncatedAfterExpectedFrames[name] == nil {
            problems.append("error \(error.code): \(error)")
        }
        if truncatedAfterExpectedFrames[name] != nil && result.error?.kind != .truncated {
            problems.append("expected a truncation error after the frame")
        }
        if info.version != conf.config["version"] { problems.append("version \(info.version)") }
        if "\(info.width)" != conf.config["width"] || "\(info.height)" != conf.config["height"] {
            problems.append("size \(info.width)x\(info.height)")
        }
        let expected = conf.frames
        if result.frames.count != expected.count {
            problems.append("\(result.frames.count) frames, expected \(expected.count)")
        }
        for (index, (frame, want)) in zip(result.frames, expected).enumerated() {
            let pixels = try Corpus.bytes("\(Corpus.pygif)/\(want.pixels)")
            if let difference = Self.firstDifference(frame.rgba, pixels, width: info.width) {
                problems.append("frame \(index): \(difference)")
            }
            if frame.delayCentiseconds != want.delay {
                problems.append("frame \(index): delay \(frame.delayCentiseconds) cs, expected \(want.delay)")
            }
        }
        let loopCount = loopCountCorrections[name].map(\.loopCount) ?? conf.loopCount
        if info.loopCount != loopCount {
            problems.append("loop count \(String(describing: info.loopCount)), expected \(String(describing: loopCount))")
        }
        if let comment = conf.comment, info.comment != comment {
            problems.append("comment \(String(describing: info.comment?.prefix(40)))")
        }
        return problems
    }

    /// Where `got` and `want` first differ, alpha-0 pixels comparing equal.
    static func firstDifference(_ got: [UInt8], _ want: [UInt8], width: Int) -> String? {
        guard got.count == want.count else { return "\(got.count) bytes, expected \(want.count)" }
        for at in stride(from: 0, to: got.count, by: 4) where !(got[at + 3] == 0 && want[at + 3] == 0) {
            if got[at..<(at + 4)] != want[at..<(at + 4)] {
                let pixel = at / 4
                return "pixel (\(pixel % max(width, 1)),\(pixel / max(width, 1))) is \(Array(got[at..<(at + 4)])), expected \(Array(want[at..<(at + 4)]))"
            }
        }
        return nil
    }

    @Test(.enabled(if: Corpus.use(Corpus.pygif + "/TESTS"), Comment(rawValue: Corpus.absentReason(Corpus.pygif))))
    func onlyMaxCodesTakesTheFallbackDecoderBecauseGiflibRefusesCodeSize11() throws {
        // giflib 5.2.1 rejects an LZW minimum code size above 8 in
        // DGifSetupDecompress; max-codes uses 11. Every other test with
        // expected frames is decoded by giflib alone.
        var taken: [String: [String]] = [:]
        for file in try Corpus.files(in: Corpus.pygif, suffix: ".conf") {
            let conf = PygifConf(text: try String(contentsOfFile: Corpus.path("\(Corpus.pygif)/\(file)"), encoding: .utf8))
            guard conf.frameCount > 0, let input = conf.config["input"] else { continue }
            let decoder = try GIFDecoder(bytes: try Corpus.bytes("\(Corpus.pygif)/\(input)"))
            while (try? decoder.nextFrame()) != nil {}
            if !decoder.fallbacks.isEmpty { taken[input] = decoder.fallbacks.map { "image \($0.image): \($0.reason)" } }
        }
        // (giflib's message for it is its generic "Failed to read from given file".)
        #expect(Array(taken.keys) == ["max-codes.gif"])
        #expect(taken["max-codes.gif"]?.count == 1)
        #expect(taken["max-codes.gif"]?.first?.hasPrefix("image 1: DGifGetImageDesc:") == true)
        print("pygif: images giflib refuses, decoded by LZWDecoder: \(taken)")
    }

    @Test(.enabled(if: Corpus.use(Corpus.pygif + "/TESTS"), Comment(rawValue: Corpus.absentReason(Corpus.pygif))))
    func animationsWithoutDelaysPlayEveryImageByDefaultWhenTheyHaveALoopExtension() throws {
        for name in ["animation-no-delays", "animation-zero-delays"] {
            let result = GIFDecoder.decodeAll(bytes: try Corpus.bytes("\(Corpus.pygif)/\(name).gif"))
            #expect(result.frames.count == 4, "\(name)")
            #expect(result.frames.allSatisfy { $0.delayMs == 100 }, "\(name)")
        }
        // Without a loop extension or any delay, images are tiles of one
        // picture (images-combine, high-color): gif87a-animation, a GIF89a
        // file built just like them, composes into one frame unless the
        // caller asks for every image.
        let tiles = GIFDecoder.decodeAll(bytes: try Corpus.bytes("\(Corpus.pygif)/gif87a-animation.gif"))
        #expect(tiles.frames.count == 1)
        let everyImage = GIFDecoder.decodeAll(bytes: try Corpus.bytes("\(Corpus.pygif)/gif87a-animation.gif"),
                                              options: DecodeOptions(grouping: .everyImage))
        #expect(everyImage.frames.count == 4)
    }
}
