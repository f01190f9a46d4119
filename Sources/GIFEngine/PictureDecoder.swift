/// Decodes a picture of any format the engine knows (``ImageFormat``: GIF,
/// JPEG, PNG, WebP), told by its first bytes, one displayed frame at a time:
/// what the player and `gif-play frames` open.
///
/// Every format gives the same ``Frame``s (the whole canvas, RGBA not
/// premultiplied, with its delay), obeys the same ``DecodeLimits`` and
/// fails with the same ``GIFError`` kinds. A JPEG or a PNG is one frame with
/// no delay of its own (a still: the player shows it for its still time); a
/// WebP is its frames with their durations. Bytes of none of the four
/// formats are ``GIFError/Kind/notGIF``, the stable `not_gif` of records.
///
/// Not `Sendable`: make it on the thread that decodes.
///
/// ```swift
/// let decoder = try PictureDecoder(contentsOfFile: path)
/// while let frame = try decoder.nextFrame() { show(frame) }
/// ```
public final class PictureDecoder: FrameDecoding {
    /// The format the file's first bytes say.
    public let format: ImageFormat
    /// What the file says about itself; a JPEG's size is the size it
    /// decodes to (see ``decodeAtLeast(width:height:)``).
    public private(set) var info: GIFInfo

    private enum Backend {
        case gif(GIFDecoder)
        case jpeg(JPEGDecoder)
        case png(PNGDecoder)
        case webp(WebPDecoder)
    }

    private let backend: Backend
    /// Holds the bytes the C decoders read from.
    private let source: ByteSource
    private let options: DecodeOptions
    private var framesMade = 0
    private var budgetUsed = 0
    private var finished = false
    /// The last frame at full size (not a GIF's: it keeps its canvas), for ``frameHash()``.
    private var lastFrame: Frame?

    /// Opens the picture in `bytes`. Throws when there is nothing to decode:
    /// none of the four formats, a header cut short, a picture too large.
    public convenience init(bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(GIFError) {
        try self.init(source: ByteSource(copying: bytes), options: options)
    }

    /// Opens the picture file at `path` (read whole, up to the file size limit).
    public convenience init(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws(GIFError) {
        try self.init(source: GIFFile.source(path: path, maxBytes: options.limits.maxFileBytes), options: options)
    }

    private init(source: ByteSource, options: DecodeOptions) throws(GIFError) {
        self.source = source
        self.options = options
        guard let format = ImageFormat.sniff(source.bytes) else {
            throw GIFError(.notGIF, "not a picture: the file is not a \(ImageFormat.names) (it starts with none of their signatures)")
        }
        self.format = format
        let limits = options.limits
        func still(_ width: Int, _ height: Int) -> GIFInfo {
            GIFInfo(version: format.name, width: width, height: height, imageCount: 1, frameCount: 1, loopCount: nil,
                    commentBytes: nil, backgroundIndex: 0)
        }
        switch format {
        case .gif:
            let gif = try GIFDecoder(source: source, options: options)
            backend = .gif(gif)
            info = gif.info
        case .jpeg:
            let jpeg = try JPEGDecoder(bytes: source.bytes, limits: limits)
            backend = .jpeg(jpeg)
            info = still(jpeg.width, jpeg.height)
        case .png:
            let png = try PNGDecoder(bytes: source.bytes, limits: limits)
            backend = .png(png)
            info = still(png.width, png.height)
        case .webp:
            let webp = try WebPDecoder(bytes: source.bytes, limits: limits)
            backend = .webp(webp)
            info = !webp.isAnimated ? still(webp.width, webp.height) : GIFInfo(version: format.name, width: webp.width, height: webp.height, imageCount: webp.frameCount,
                           frameCount: webp.frameCount, loopCount: webp.loopCount, commentBytes: nil, backgroundIndex: 0)
        }
    }

    /// Before the first frame: decode at the smallest size not below
    /// `width`×`height` that the format can reach while decoding (a JPEG: its
    /// full size reduced by ½, ¼ or ⅛), so a picture shown small is never
    /// decoded big. ``info`` then gives the size the frames come at. Other
    /// formats decode at their own size.
    public func decodeAtLeast(width: Int, height: Int) {
        guard framesMade == 0, case .jpeg(let jpeg) = backend else { return }
        jpeg.reduce(toAtLeast: width, height)
        info.width = jpeg.width
        info.height = jpeg.height
    }

    /// Frames returned so far.
    public var framesDecoded: Int { framesMade }

    /// The next displayed frame, or nil after the last one. Throws when the
    /// file breaks; every frame before the fault has been returned by then,
    /// and later calls return nil.
    public func nextFrame() throws(GIFError) -> Frame? {
        if case .gif(let gif) = backend { return try counted(gif.nextFrame()) }
        return try nextOtherFrame()
    }

    /// The next displayed frame resampled by `scaler` (whose source size is
    /// ``info``'s): the same bytes as `scaler.scale(nextFrame()!)`.
    public func nextFrame(scaledBy scaler: Scaler) throws(GIFError) -> Frame? {
        if case .gif(let gif) = backend { return try counted(gif.nextFrame(scaledBy: scaler)) }
        return try nextOtherFrame().map { scaler.scale($0) }
    }

    /// The ``FrameHash`` of the frame returned last, from the picture as
    /// decoded (never a scaled one); nil before the first frame or for a
    /// picture too small or too plain to hash.
    public func frameHash() -> FrameHash? {
        if case .gif(let gif) = backend { return gif.frameHash() }
        guard let frame = lastFrame else { return nil }
        return frame.rgba.withUnsafeBytes { FrameHash.of(rgba: $0, width: frame.width, height: frame.height) }
    }


    private func counted(_ frame: Frame?) -> Frame? {
        if frame != nil { framesMade += 1 }
        return frame
    }

    /// The next frame of a JPEG, a PNG or a WebP.
    private func nextOtherFrame() throws(GIFError) -> Frame? {
        guard !finished else { return nil }
        do throws(GIFError) {
            let (width, height) = (info.width, info.height)
            var rgba: [UInt8], delayMs = 0, centiseconds = 0
            switch backend {
            case .gif: return nil
            case .jpeg(let jpeg):
                finished = true
                try charge(2 * width * height, for: "the JPEG")
                rgba = try jpeg.decode()
            case .png(let png):
                finished = true
                try charge(2 * width * height, for: "the PNG")
                rgba = try png.decode()
            case .webp(let webp):
                try charge(width * height, for: "frame \(framesMade + 1)")
                guard let next = try webp.next() else {
                    finished = true
                    return nil
                }
                try charge(width * height, for: "frame \(framesMade + 1)")
                rgba = next.rgba
                if webp.isAnimated {
                    centiseconds = next.durationMs / 10
                    delayMs = options.delays.milliseconds(forMs: next.durationMs)
                }
            }
            let frame = Frame(index: framesMade, width: width, height: height, rgba: rgba, delayMs: delayMs,
                              delayCentiseconds: centiseconds, images: framesMade..<(framesMade + 1))
            framesMade += 1
            lastFrame = frame
            return frame
        } catch {
            finished = true
            throw error
        }
    }

    /// Takes `pixels` from the file's pixel budget, as a GIF's frames and images do.
    private func charge(_ pixels: Int, for what: String) throws(GIFError) {
        let limit = options.limits.maxTotalPixels
        guard pixels <= limit - budgetUsed else {
            throw GIFError(.tooLarge, "\(what) would pass the budget of \(limit) pixels for one file")
        }
        budgetUsed += pixels
    }
}
