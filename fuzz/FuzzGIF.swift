// The fuzz target of the GIF engine: decodes, composites and scales whatever
// libFuzzer feeds it, under AddressSanitizer. Built with swiftc over the
// engine's sources (see fuzz/run): a SwiftPM executable cannot link with
// -sanitize=fuzzer, because libFuzzer brings its own `main`.

/// One input: every frame in both groupings, each scaled and encoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // Smaller limits than the defaults keep each input fast; the paths that
    // enforce them are the same.
    let limits = DecodeLimits(maxCanvasPixels: 1 << 20, maxTotalPixels: 1 << 23, maxImages: 2000)
    for grouping in [FrameGrouping.displayed, .everyImage] {
        let options = DecodeOptions(limits: limits, delays: DelayPolicy(), grouping: grouping)
        guard let decoder = try? GIFDecoder(bytes: bytes, options: options) else { continue }
        let info = decoder.info
        let scaler = Scaler.fitting(sourceWidth: info.width, sourceHeight: info.height, columns: 7, rows: 3,
                                    cell: .halfBlock, background: grouping == .displayed ? .black : nil)
        var frames = 0
        while true {
            let frame: Frame?
            do {
                frame = try decoder.nextFrame()
            } catch {
                precondition(!error.message.isEmpty)
                break
            }
            guard let frame else { break }
            precondition(frame.rgba.count == info.width * info.height * 4, "frame size")
            precondition(frame.width == info.width && frame.height == info.height, "frame geometry")
            let scaled = scaler.scale(frame)
            precondition(scaled.rgba.count == scaler.width * scaler.height * 4, "scaled size")
            if frames == 0 { _ = FrameFormat.ppm.encode(scaled) }
            frames += 1
        }
        precondition(frames <= info.frameCount, "more frames than announced")
    }
    return 0
}
