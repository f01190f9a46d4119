import Foundation
import Testing
import TestSupport
@testable import GIFEngine

// libnsgif's odd and fuzzer-made GIFs (../shared/corpus/gif-bad): every file
// must decode, or give the frames before its fault and a clean error, and
// never crash, hang or grow without bound. Reaching the end of this test is
// the check for crashes and hangs; the limits bound what a file may cost.

@Suite(.enabled(if: Corpus.use(Corpus.bad), Comment(rawValue: Corpus.absentReason(Corpus.bad))))
struct GIFBadCorpusTests {
    /// Every `.gif` under the folder, as paths relative to the corpus.
    func allFiles() throws -> [String] {
        let base = Corpus.path(Corpus.bad)
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".gif") }.sorted().map { "\(Corpus.bad)/\($0)" }
    }

    @Test func everyFileDecodesOrFailsCleanly() throws {
        let files = try allFiles()
        #expect(files.count == 284)
        let options = DecodeOptions()
        var decoded = 0
        var codes: [String: Int] = [:]
        for file in files {
            for grouping in [FrameGrouping.displayed, .everyImage] {
                var current = options
                current.grouping = grouping
                let result = GIFDecoder.decodeAll(bytes: try Corpus.bytes(file), options: current)
                var cost = 0
                for frame in result.frames {
                    #expect(frame.rgba.count == frame.width * frame.height * 4, "\(file)")
                    #expect(frame.width * frame.height <= options.limits.maxCanvasPixels, "\(file)")
                    cost += frame.width * frame.height
                }
                #expect(cost <= options.limits.maxTotalPixels, "\(file)")
                if let info = result.info {
                    #expect(result.frames.count <= info.frameCount, "\(file): more frames than announced")
                }
                guard grouping == .displayed else { continue }
                if let error = result.error {
                    codes[error.code, default: 0] += 1
                    #expect(!error.message.isEmpty)
                } else {
                    decoded += 1
                    #expect(!result.frames.isEmpty, "\(file): no frame and no error")
                }
            }
        }
        let summary = codes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("gif-bad: \(files.count) files: \(decoded) decode, the others fail cleanly (\(summary))")
    }

    @Test func tightLimitsStopLargeFilesBeforeTheyCostMore() throws {
        let limits = DecodeLimits(maxCanvasPixels: 4096, maxTotalPixels: 20_000, maxImages: 8)
        for file in try allFiles() {
            let result = GIFDecoder.decodeAll(bytes: try Corpus.bytes(file), options: DecodeOptions(limits: limits))
            let cost = result.frames.reduce(0) { $0 + $1.width * $1.height }
            #expect(cost <= limits.maxTotalPixels, "\(file)")
            #expect(result.frames.allSatisfy { $0.width * $0.height <= limits.maxCanvasPixels }, "\(file)")
        }
    }

    @Test func wavesIsARealAnimationThatDecodesWhole() throws {
        let result = GIFDecoder.decodeAll(bytes: try Corpus.bytes("\(Corpus.bad)/libnsgif/test/data/waves.gif"))
        #expect(result.error == nil)
        #expect(result.info.map { [$0.width, $0.height] } == [268, 86])
        #expect(result.frames.count == 10)
        #expect(result.info?.loopCount == 0)
    }
}
