// bench/decode-driver.swift: the GIF engine's side of bench/decode.
//
//   decode-driver REPEAT FILE...
//   decode-driver --hash REPEAT FILE... (also makes each GIF's ClipHash, as gif-play does)
//   decode-driver --compare FILE RGBA   (RGBA: every frame, as convert -coalesce rgba:- writes)
//
// Reads every FILE REPEAT times and decodes and composites every frame with
// PictureDecoder (GIFDecoder for a GIF; a JPEG, PNG or WebP through its own
// library, for the formats row), dropping each frame before asking for the next (as the player
// does once it has scaled it), then prints one line: elapsed milliseconds,
// frames made, files that failed, and a checksum that keeps the work from
// being optimized away. With --hash it also makes each file's ClipHash from
// its frames as they come (the first frame's and the one at 250 ms, as
// gif-play does while it decodes) and adds, after the checksum, the ms spent
// in the hashing alone. With --compare it checks, untimed, that its frames
// are ImageMagick's, pixel for pixel (alpha-0 pixels compare equal). Compiled by bench/decode with swiftc -O over
// Sources/GIFEngine, as `swift build -c release` compiles that module.

#if canImport(Glibc)
import Glibc
#endif

@main
struct DecodeDriver {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "--compare" {
            exit(compare(arguments[2], with: arguments[3]))
        }
        let hashing = arguments.count >= 2 && arguments[1] == "--hash"
        let rest = Array(arguments.dropFirst(hashing ? 2 : 1))
        guard rest.count >= 2, let repeatCount = Int(rest[0]) else {
            print("usage: decode-driver [--hash] REPEAT FILE...")
            exit(64)
        }
        var frames = 0, failed = 0
        var checksum: UInt64 = 0
        var hashNs = 0
        let start = now()
        for round in 0..<repeatCount {
            for path in rest.dropFirst() {
                do throws(GIFError) {
                    let decoder = try PictureDecoder(contentsOfFile: path)
                    var maker = ClipHash.Maker(width: decoder.info.width, height: decoder.info.height)
                    // Only the hashing is timed: the frame it reads is the one just decoded.
                    let timedHash = { () -> FrameHash? in
                        let began = now()
                        defer { hashNs += now() - began }
                        return decoder.frameHash()
                    }
                    while let frame = try decoder.nextFrame() {
                        frames += 1
                        checksum &+= UInt64(frame.rgba[frame.rgba.count / 2])
                        if hashing && maker.wantsNext { maker.frame(delayMs: frame.delayMs, hash: timedHash) }
                    }
                    if hashing { maker.ended(lastFrame: timedHash) }
                    checksum &+= (maker.hash?.first.gradient.bits ?? 0) &+ (maker.hash?.first.cosine.bits ?? 0)
                } catch {
                    if round == 0 { failed += 1 }
                }
            }
        }
        let ms = Double(now() - start) / 1e6
        print("\(ms) \(frames) \(failed) \(checksum)" + (hashing ? " \(Double(hashNs) / 1e6)" : ""))
    }

    /// The monotonic clock, in ns.
    static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// The bytes of the file at `path` (the reference frames are not a GIF, so
    /// not for the engine's reader); nil when it cannot be read.
    static func readWhole(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }

    /// 0 when every frame of `path` equals the frames in the file `reference`.
    static func compare(_ path: String, with reference: String) -> Int32 {
        do throws(GIFError) {
            guard let expected = readWhole(reference) else {
                print("\(reference): cannot read the reference frames: \(String(cString: strerror(errno)))")
                return 1
            }
            let decoder = try GIFDecoder(contentsOfFile: path)
            var offset = 0, index = 0
            while let frame = try decoder.nextFrame() {
                let rgba = frame.rgba
                guard offset + rgba.count <= expected.count else {
                    print("\(path): frame \(index): the reference has only \(expected.count / rgba.count) frames")
                    return 1
                }
                for at in stride(from: 0, to: rgba.count, by: 4) {
                    let other = offset + at
                    if rgba[at + 3] == 0 && expected[other + 3] == 0 { continue }
                    if rgba[at] != expected[other] || rgba[at + 1] != expected[other + 1]
                        || rgba[at + 2] != expected[other + 2] || rgba[at + 3] != expected[other + 3] {
                        print("\(path): frame \(index), pixel \(at / 4) differs from ImageMagick's")
                        return 1
                    }
                }
                offset += rgba.count
                index += 1
            }
            guard offset == expected.count else {
                print("\(path): \(index) frames, ImageMagick made more")
                return 1
            }
            print("\(path): \(index) frames, pixel for pixel ImageMagick's")
            return 0
        } catch {
            print("\(path): \(error)")
            return 1
        }
    }
}
