import CWebP

/// Decodes a WebP, still or animated, through libwebp's demuxer and
/// WebPAnimDecoder, one whole canvas a frame with its duration.
///
/// The canvas size is read from the header (WebPGetFeatures) and checked
/// before libwebp allocates it, and the frame count before any frame is
/// decoded (``DecodeLimits/maxImages``: a WebP's frames are its images).
/// Frames then cost the pixel budget as a GIF's do, so a file of 10 000
/// frames ends at the budget with ``GIFError/Kind/tooLarge``, its frames
/// before it played. Memory holds the file, libwebp's two canvases and the
/// frame handed out, never every frame.
final class WebPDecoder {
    /// The canvas size.
    let width: Int, height: Int
    /// The frames the file holds (1 for a still).
    let frameCount: Int
    /// The loop count as written (0: forever).
    let loopCount: Int
    /// Whether the file is an animation (a still WebP is one frame with no duration).
    let isAnimated: Bool
    private let decoder: OpaquePointer
    private var lastTimestamp: Int32 = 0
    private var framesMade = 0

    /// Reads the WebP in `bytes` (which must outlive the decoder).
    init(bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(GIFError) {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base, bytes.count, &features)
        guard status == VP8_STATUS_OK else {
            throw GIFError(status == VP8_STATUS_NOT_ENOUGH_DATA ? .truncated : .corrupt,
                           "not a WebP that can be read: libwebp status \(status.rawValue)")
        }
        let (width, height) = (Int(features.width), Int(features.height))
        guard width > 0, height > 0, width * height <= limits.maxCanvasPixels else {
            throw GIFError(.tooLarge, "the WebP is \(width)×\(height), more than the limit of \(limits.maxCanvasPixels) pixels")
        }
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw GIFError(.corrupt, "libwebp: a version mismatch") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = WebPData(bytes: base, size: bytes.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw GIFError(.corrupt, "the WebP does not decode: libwebp cannot read its frames (cut short or corrupt)")
        }
        // Every check before the first stored property: a throw from an
        // initialized object runs deinit, which would delete the decoder again.
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            throw GIFError(.corrupt, "the WebP does not decode: libwebp gives no animation info")
        }
        let (canvasWidth, canvasHeight, frames) = (Int(info.canvas_width), Int(info.canvas_height), Int(info.frame_count))
        guard canvasWidth * canvasHeight <= limits.maxCanvasPixels, frames <= limits.maxImages else {
            WebPAnimDecoderDelete(decoder)
            throw GIFError(.tooLarge, "the WebP holds \(frames) frames of \(canvasWidth)×\(canvasHeight), more than the limit of \(limits.maxImages) frames")
        }
        self.decoder = decoder
        (self.width, self.height, frameCount, loopCount) = (canvasWidth, canvasHeight, frames, Int(info.loop_count))
        isAnimated = features.has_animation != 0
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    /// The next frame's canvas (RGBA) and duration in ms; nil after the last.
    func next() throws(GIFError) -> (rgba: [UInt8], durationMs: Int)? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
            throw GIFError(.corrupt, "the WebP's frame \(framesMade + 1) does not decode")
        }
        let rgba = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
        defer { lastTimestamp = timestamp; framesMade += 1 }
        return (rgba, max(0, Int(timestamp) - Int(lastTimestamp)))
    }
}
