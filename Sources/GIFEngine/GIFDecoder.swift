import CGif

/// Decodes a GIF one displayed frame at a time, compositing each on a canvas
/// exactly as browsers do.
///
/// giflib decodes every image (LZW, color tables); interlace, clipping,
/// transparency and disposal are done here. Memory holds the file, the
/// canvas, the part of it a "restore previous" image covers, and the frame
/// being handed out — never every frame at full size. A frame returned by
/// ``nextFrame()`` shares the canvas's storage until the next call draws on
/// it, so a caller that is done with a frame before asking for the next one
/// costs no copy.
///
/// Not `Sendable`: make it on the thread that decodes, and send the
/// ``Frame`` values (which are) to other threads.
///
/// ```swift
/// let decoder = try GIFDecoder(bytes: data)
/// while let frame = try decoder.nextFrame() { show(frame) }
/// ```
public final class GIFDecoder: FrameDecoding {
    /// What the file says about itself.
    public let info: GIFInfo

    let options: DecodeOptions
    let source: ByteSource
    let structure: GIFStructure
    let gif: UnsafeMutablePointer<GifFileType>
    var canvas: Canvas
    private let everyImageIsAFrame: Bool
    private var nextImage = 0
    private var firstImageOfFrame = 0
    private var framesMade = 0
    var budgetUsed = 0
    private var finished = false
    var row: [UInt8] = []
    /// While ``nextFrame(scaledBy:)`` runs: an image that covers the whole
    /// canvas with opaque pixels is decoded into `covering` as indices, not
    /// painted, and the frame is scaled from them. The canvas is painted
    /// from them only when something needs it (`settleCanvas`).
    var deferring = false
    var covering: (indices: [UInt8], colors: [UInt32])?
    var spareIndices: [UInt8] = []
    /// Images decoded into `covering` so far (tests read it).
    var coveringImages = 0
    /// The images (from 1) decoded by ``LZWDecoder`` instead of giflib, and
    /// giflib's reason; tests read it to show which files take that path.
    var fallbacks: [(image: Int, reason: String)] = []

    /// Opens the GIF in `bytes`. Throws when there is nothing to decode: not a
    /// GIF, a header cut short, an empty or too large canvas. Faults later in
    /// the file are thrown by ``nextFrame()`` after the frames before them.
    public convenience init(bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(GIFError) {
        try self.init(source: ByteSource(copying: bytes), options: options)
    }

    /// Opens the GIF file at `path` (read whole, up to the file size limit).
    public convenience init(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws(GIFError) {
        try self.init(source: GIFFile.source(path: path, maxBytes: options.limits.maxFileBytes), options: options)
    }

    /// Opens the GIF in `source` (``PictureDecoder`` has read and sniffed it).
    init(source: ByteSource, options: DecodeOptions) throws(GIFError) {
        self.options = options
        self.source = source
        structure = try GIFStructure.scan(source.bytes, maxImages: options.limits.maxImages)
        let pixels = structure.width * structure.height
        guard pixels > 0 else {
            throw GIFError(.corrupt, "the logical screen is \(structure.width)×\(structure.height): there is nothing to show")
        }
        guard pixels <= options.limits.maxCanvasPixels else {
            throw GIFError(.tooLarge, "the canvas is \(structure.width)×\(structure.height), more than the limit of \(options.limits.maxCanvasPixels) pixels")
        }
        var status: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), ByteSource.readCallback, &status) else {
            throw GIFError(.corrupt, "giflib: \(Self.message(status))")
        }
        self.gif = gif
        canvas = Canvas(width: structure.width, height: structure.height)

        let images = structure.images
        let noDelays = !images.contains { $0.delayCentiseconds > 0 }
        let declaresAnimation = structure.loopCount != nil || structure.version == "GIF87a"
        everyImageIsAFrame = options.grouping == .everyImage || (noDelays && declaresAnimation)
        var frames = 0
        for index in images.indices where everyImageIsAFrame || images[index].delayCentiseconds > 0 || index == images.count - 1 {
            frames += 1
        }
        if images.isEmpty && structure.fault == nil { frames = 1 }
        info = GIFInfo(
            version: structure.version, width: structure.width, height: structure.height,
            imageCount: images.count, frameCount: frames, loopCount: structure.loopCount,
            commentBytes: structure.comment, backgroundIndex: structure.backgroundIndex)
    }

    deinit {
        var status: Int32 = 0
        DGifCloseFile(gif, &status)
    }

    /// The next displayed frame, or nil after the last one.
    ///
    /// Throws when the file breaks (cut short, corrupt data, a limit passed);
    /// every frame before the fault has been returned by then, and later calls
    /// return nil.
    public func nextFrame() throws(GIFError) -> Frame? {
        guard let frame = try composeFrame() else { return nil }
        settleCanvas()
        return makeFrame(frame)
    }

    /// The next displayed frame resampled by `scaler` (whose source size is
    /// this GIF's canvas): the same bytes as `scaler.scale(nextFrame()!)`,
    /// cheaper when the frame is one image covering the whole canvas with
    /// opaque pixels, as most frames of full-motion GIFs are. Such an image
    /// is scaled from its color indices and painted on the canvas only when a
    /// later image needs what is under it.
    public func nextFrame(scaledBy scaler: Scaler) throws(GIFError) -> Frame? {
        precondition(scaler.sourceWidth == canvas.width && scaler.sourceHeight == canvas.height,
                     "the scaler is for another canvas size")
        deferring = true
        defer { deferring = false }
        guard let frame = try composeFrame() else { return nil }
        let scaled: [UInt8]
        if let covering {
            scaled = covering.indices.withUnsafeBufferPointer { indices in
                covering.colors.withUnsafeBufferPointer { colors in
                    scaler.scale(indices: indices.baseAddress!, colors: colors.baseAddress!)
                }
            }
        } else {
            scaled = scaler.scale(canvas.pixels)
        }
        return made(Frame(
            index: framesMade, width: scaler.width, height: scaler.height, rgba: scaled,
            delayMs: options.delays.milliseconds(forCentiseconds: frame.delayCentiseconds),
            delayCentiseconds: frame.delayCentiseconds, images: frame.images))
    }

    /// Frames returned so far.
    public var framesDecoded: Int { framesMade }

    /// The ``FrameHash`` of the frame returned last (by either
    /// `nextFrame`), from the canvas as decoded, never a scaled picture;
    /// nil before the first frame, for a canvas too small to hash, or a
    /// picture with too little detail (``PerceptualHash/minimumDetail``). A
    /// frame scaled from its color indices is hashed from them, so asking
    /// paints nothing.
    public func frameHash() -> FrameHash? {
        guard framesMade > 0 else { return nil }
        let (width, height) = (canvas.width, canvas.height)
        if let covering {
            return covering.indices.withUnsafeBufferPointer { indices in
                covering.colors.withUnsafeBufferPointer { colors in
                    guard let indices = indices.baseAddress, let colors = colors.baseAddress else { return nil }
                    return FrameHash.of(indices: indices, colors: colors, width: width, height: height)
                }
            }
        }
        return canvas.pixels.withUnsafeBytes { FrameHash.of(rgba: $0, width: width, height: height) }
    }

    /// Draws the images of the next displayed frame; nil after the last one.
    private func composeFrame() throws(GIFError) -> (delayCentiseconds: Int, images: Range<Int>)? {
        guard !finished else { return nil }
        do throws(GIFError) {
            let images = structure.images
            while nextImage < images.count {
                let index = nextImage
                nextImage += 1
                try draw(images[index], number: index + 1)
                if everyImageIsAFrame || images[index].delayCentiseconds > 0 || index == images.count - 1 {
                    let frame = firstImageOfFrame..<(index + 1)
                    firstImageOfFrame = index + 1
                    try charge(canvas.width * canvas.height, for: "frame \(framesMade + 1)")
                    return (images[index].delayCentiseconds, frame)
                }
            }
            finished = true
            if let fault = structure.fault { throw fault }
            if images.isEmpty {
                // No image at all: one transparent frame of the screen's size.
                try charge(canvas.width * canvas.height, for: "frame \(framesMade + 1)")
                return (0, 0..<0)
            }
            return nil
        } catch {
            finished = true
            throw error
        }
    }


    // MARK: Frames

    private func makeFrame(_ frame: (delayCentiseconds: Int, images: Range<Int>)) -> Frame {
        made(Frame(
            index: framesMade, width: canvas.width, height: canvas.height, rgba: canvas.pixels,
            delayMs: options.delays.milliseconds(forCentiseconds: frame.delayCentiseconds),
            delayCentiseconds: frame.delayCentiseconds, images: frame.images))
    }

    private func made(_ frame: Frame) -> Frame {
        framesMade += 1
        return frame
    }

    func charge(_ pixels: Int, for what: String) throws(GIFError) {
        let limit = options.limits.maxTotalPixels
        guard pixels <= limit - budgetUsed else {
            throw GIFError(.tooLarge, "\(what) would pass the budget of \(limit) pixels for one file")
        }
        budgetUsed += pixels
    }
}
