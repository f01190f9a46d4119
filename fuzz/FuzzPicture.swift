// The fuzz targets of the decoders that are not giflib (issue 31): JPEG
// (libjpeg-turbo), PNG (libpng) and WebP (libwebp), through PictureDecoder,
// under AddressSanitizer. One file, built once per format by fuzz/run with
// -D FUZZ_JPEG, FUZZ_PNG or FUZZ_WEBP: an input that is not of the format is
// passed over at once, so the fuzzer stays inside one library.

#if FUZZ_JPEG
let fuzzedFormat = ImageFormat.jpeg
#elseif FUZZ_PNG
let fuzzedFormat = ImageFormat.png
#else
let fuzzedFormat = ImageFormat.webp
#endif

/// One input: every frame, at full size and (a JPEG) reduced, scaled, hashed and encoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard ImageFormat.sniff(bytes) == fuzzedFormat else { return 0 }
    // Smaller limits than the defaults keep each input fast; the paths that
    // enforce them are the same.
    let limits = DecodeLimits(maxCanvasPixels: 1 << 20, maxTotalPixels: 1 << 23, maxImages: 2000)
    for reduce in [false, true] {
        guard let decoder = try? PictureDecoder(bytes: bytes, options: DecodeOptions(limits: limits)) else { continue }
        if reduce { decoder.decodeAtLeast(width: 7, height: 5) }
        let info = decoder.info
        let scaler = Scaler.fitting(sourceWidth: info.width, sourceHeight: info.height, columns: 7, rows: 3,
                                    cell: .halfBlock, background: reduce ? nil : .black)
        var frames = 0
        while true {
            let frame: Frame?
            do {
                frame = try reduce ? decoder.nextFrame(scaledBy: scaler) : decoder.nextFrame()
            } catch {
                precondition(!error.message.isEmpty)
                break
            }
            guard let frame else { break }
            if reduce {
                precondition(frame.rgba.count == scaler.width * scaler.height * 4, "scaled size")
            } else {
                precondition(frame.rgba.count == info.width * info.height * 4, "frame size")
                precondition(frame.width == info.width && frame.height == info.height, "frame geometry")
                _ = FrameFormat.ppm.encode(scaler.scale(frame))
            }
            _ = decoder.frameHash()
            frames += 1
        }
        precondition(frames <= info.frameCount, "more frames than announced")
    }
    return 0
}
