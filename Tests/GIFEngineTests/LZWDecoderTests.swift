import Testing
import TestSupport
@testable import GIFEngine

@Suite struct LZWDecoderTests {
    /// Decodes `stream` (sub-blocks included) with `LZWDecoder`, `chunk` pixels at a time.
    func decode(_ stream: [UInt8], codeSize: Int, count: Int, chunk: Int = 7) -> (pixels: [UInt8], status: LZWDecoder.Status) {
        stream.withUnsafeBytes { bytes in
            guard let decoder = LZWDecoder(bytes: bytes, dataOffset: 0, dataEnd: bytes.count, minimumCodeSize: codeSize) else {
                return ([], .invalidCode(-1))
            }
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: chunk)
            while out.count < count {
                let want = min(chunk, count - out.count)
                let got = buffer.withUnsafeMutableBufferPointer { decoder.read(into: $0.baseAddress!, count: want) }
                out += buffer.prefix(got)
                if got < want { break }
            }
            return (out, decoder.status)
        }
    }

    /// Pseudo-random indices below `colors`, the same every run.
    func pixels(_ count: Int, colors: Int, seed: UInt32 = 1) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8((state >> 16) % UInt32(colors))
        }
    }

    @Test func decodesWhatTheEncoderWroteAtEveryCodeSize() {
        for codeSize in 2...11 {
            let colors = min(1 << codeSize, 256)
            let input = pixels(20_000, colors: colors, seed: UInt32(codeSize))
            let stream = GIFBuilder.subBlocks(GIFBuilder.lzw(input, minimumCodeSize: codeSize))
            let result = decode(stream, codeSize: codeSize, count: input.count)
            #expect(result.pixels == input, "code size \(codeSize)")
        }
    }

    @Test func decodesLongRunsThatFillTheTable() {
        // Runs make KwKwK codes (a code used as it is defined) and long strings.
        let input = [UInt8](repeating: 1, count: 100_000) + pixels(5000, colors: 4) + [UInt8](repeating: 2, count: 3000)
        let stream = GIFBuilder.subBlocks(GIFBuilder.lzw(input, minimumCodeSize: 2))
        #expect(decode(stream, codeSize: 2, count: input.count, chunk: 4096).pixels == input)
    }

    @Test func stopsAtTheEndCodeWithThePixelsSoFar() {
        let stream = GIFBuilder.subBlocks(GIFBuilder.lzw([1, 2, 3], minimumCodeSize: 2))
        let result = decode(stream, codeSize: 2, count: 10)
        #expect(result.pixels == [1, 2, 3])
        #expect(result.status == .finished)
    }

    @Test func stopsAtTheEndOfTheDataWithoutAnEndCode() {
        let stream = GIFBuilder.subBlocks(GIFBuilder.lzw([3, 3, 3, 1], minimumCodeSize: 2, endCode: false))
        #expect(decode(stream, codeSize: 2, count: 4).pixels == [3, 3, 3, 1])
        // Asked for more, it also reads the padding bits of the last byte as a
        // code (as every decoder does without an end code), then stops.
        let more = decode(stream, codeSize: 2, count: 10)
        #expect(more.pixels.prefix(4) == [3, 3, 3, 1])
        #expect(more.pixels.count < 10)
        #expect(more.status == .finished)
        #expect(decode([0], codeSize: 2, count: 4).pixels == [])
        #expect(decode([], codeSize: 2, count: 4).status == .finished)
    }

    @Test func stopsAtACodeThatIsNotInTheTable() {
        // Clear, literal 1, then 7 while the next free code is 6.
        var bits = GIFBuilder.BitWriter()
        for code in [4, 1, 7] { bits.write(code, 3) }
        let result = decode(GIFBuilder.subBlocks(bits.flushed), codeSize: 2, count: 10)
        #expect(result.pixels == [1])
        #expect(result.status == .invalidCode(7))
    }

    @Test func keepsReadingTwelveBitCodesWhenTheTableIsFullAndNotCleared() {
        // A "deferred clear": the encoder goes on with the full table.
        let input = pixels(60_000, colors: 16, seed: 9)
        var bits = GIFBuilder.BitWriter()
        var table: [Int: Int] = [:]
        var next = 18, size = 5
        bits.write(16, size)
        var prefix = Int(input[0])
        for pixel in input.dropFirst() {
            if let code = table[prefix << 8 | Int(pixel)] {
                prefix = code
                continue
            }
            bits.write(prefix, size)
            if next < 4096 {
                table[prefix << 8 | Int(pixel)] = next
                next += 1
                if next > (1 << size) && size < 12 { size += 1 }
            }
            prefix = Int(pixel)
        }
        bits.write(prefix, size)
        bits.write(17, size)
        #expect(next == 4096)
        #expect(decode(GIFBuilder.subBlocks(bits.flushed), codeSize: 4, count: input.count, chunk: 1000).pixels == input)
    }

    @Test func refusesACodeSizeAboveEleven() {
        [UInt8]([0]).withUnsafeBytes { bytes in
            #expect(LZWDecoder(bytes: bytes, dataOffset: 0, dataEnd: 1, minimumCodeSize: 12) == nil)
            #expect(LZWDecoder(bytes: bytes, dataOffset: 0, dataEnd: 1, minimumCodeSize: 11) != nil)
        }
    }

    @Test func giflibAtCodeSize8AndTheFallbackAt9To11DrawTheSameFrame() throws {
        // The same pixels through giflib (code size 8) and through LZWDecoder
        // (code size 9 to 11, which giflib refuses) make the same frame.
        let input = pixels(64 * 48, colors: 200, seed: 3)
        // (Typed: the untyped closure took the type checker 10 s, the most of any test.)
        let colors = (0..<256).map { (index: Int) -> [UInt8] in [UInt8(index), UInt8(255 - index), UInt8(index / 2)] }
        var frames: [[UInt8]] = []
        for codeSize in [8, 9, 10, 11] {
            var gif = GIFBuilder(width: 64, height: 48, colors: colors)
            gif.image(width: 64, height: 48, pixels: input, codeSize: codeSize)
            gif.trailer()
            let decoder = try GIFDecoder(bytes: gif.bytes)
            frames.append(try #require(try decoder.nextFrame()).rgba)
            #expect(decoder.fallbacks.count == (codeSize > 8 ? 1 : 0), "code size \(codeSize)")
        }
        #expect(Set(frames).count == 1)
    }
}
