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
public final class GIFDecoder {
    /// What the file says about itself.
    public let info: GIFInfo

    private let options: DecodeOptions
    private let source: ByteSource
    private let structure: GIFStructure
    private let gif: UnsafeMutablePointer<GifFileType>
    private var canvas: Canvas
    private let everyImageIsAFrame: Bool
    private var nextImage = 0
    private var firstImageOfFrame = 0
    private var framesMade = 0
    private var budgetUsed = 0
    private var finished = false
    private var row: [UInt8] = []
    /// While ``nextFrame(scaledBy:)`` runs: an image that covers the whole
    /// canvas with opaque pixels is decoded into `covering` as indices, not
    /// painted, and the frame is scaled from them. The canvas is painted
    /// from them only when something needs it (`settleCanvas`).
    private var deferring = false
    private var covering: (indices: [UInt8], colors: [UInt32])?
    private var spareIndices: [UInt8] = []
    /// Images decoded into `covering` so far (tests read it).
    private(set) var coveringImages = 0
    /// The images (from 1) decoded by ``LZWDecoder`` instead of giflib, and
    /// giflib's reason; tests read it to show which files take that path.
    private(set) var fallbacks: [(image: Int, reason: String)] = []

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

    private init(source: ByteSource, options: DecodeOptions) throws(GIFError) {
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

    /// Decodes every frame and keeps them all, at full size (for tests and
    /// tools; the player asks for one frame at a time instead). A fault ends
    /// the list and is returned beside it; `info` is nil when the file could
    /// not even be opened.
    public static func decodeAll(bytes: [UInt8], options: DecodeOptions = DecodeOptions()) -> (info: GIFInfo?, frames: [Frame], error: GIFError?) {
        var frames: [Frame] = []
        do throws(GIFError) {
            let decoder = try GIFDecoder(bytes: bytes, options: options)
            do throws(GIFError) {
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            } catch {
                return (decoder.info, frames, error)
            }
            return (decoder.info, frames, nil)
        } catch {
            return (nil, frames, error)
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

    private func charge(_ pixels: Int, for what: String) throws(GIFError) {
        let limit = options.limits.maxTotalPixels
        guard pixels <= limit - budgetUsed else {
            throw GIFError(.tooLarge, "\(what) would pass the budget of \(limit) pixels for one file")
        }
        budgetUsed += pixels
    }

    // MARK: Images

    /// Composites image `number` (from 1) onto the canvas.
    private func draw(_ entry: ImageEntry, number: Int) throws(GIFError) {
        if deferring && canvas.isCovered(by: entry) && decodeCovering(entry) { return }
        settleCanvas()
        canvas.begin(entry)
        defer { canvas.end(entry) }
        guard !entry.isEmpty, canvas.clip(entry) != nil, let codeSize = entry.codeSize else { return }
        // Rows below the canvas are never decoded when they come last.
        let rows = entry.interlaced ? entry.height : min(entry.height, canvas.height - entry.top)
        try charge(entry.width * rows, for: "image \(number)")
        guard codeSize <= 11 else {
            throw GIFError(.corrupt, "image \(number): LZW minimum code size \(codeSize) is out of range (at most 11)", offset: entry.dataOffset - 1)
        }
        defer { source.offset = entry.dataEnd }

        if let lookup = startGiflibImage(entry) {
            if decodeWithGiflib(entry, rows: rows, lookup: lookup) { return }
            fallbacks.append((number, "DGifGetLine: \(Self.message(gif.pointee.Error))"))
        } else {
            fallbacks.append((number, "DGifGetImageDesc: \(Self.message(gif.pointee.Error))"))
        }
        // giflib refused the image (code size 9 to 11) or stopped inside it
        // (data ending early, a bad code): decode it again with our own LZW
        // decoder, which draws what did come. Rows giflib already drew get
        // the same pixels again.
        let lookup = ColorLookup(span: entry.localTable ?? structure.globalTable, in: source.bytes, transparentIndex: entry.transparentIndex)
        try decodeWithFallback(entry, codeSize: codeSize, rows: rows, lookup: lookup, number: number)
    }

    /// Decodes `entry`, which covers the canvas, into `covering` if its
    /// pixels are all opaque and giflib decodes it whole; false leaves
    /// everything as it was, for `draw` to do the image the usual way (and
    /// to throw what it throws).
    private func decodeCovering(_ entry: ImageEntry) -> Bool {
        guard let codeSize = entry.codeSize, codeSize <= 11 else { return false }
        let width = canvas.width, height = canvas.height
        let rows = entry.interlaced ? entry.height : height
        guard entry.width * rows <= options.limits.maxTotalPixels - budgetUsed else { return false }
        defer { source.offset = entry.dataEnd }
        guard let lookup = startGiflibImage(entry), lookup.transparent == nil else { return false }
        if spareIndices.count != width * height { spareIndices = [UInt8](repeating: 0, count: width * height) }
        if row.count < width { row = [UInt8](repeating: 0, count: width) }
        let decoded = spareIndices.withUnsafeMutableBufferPointer { indices in
            row.withUnsafeMutableBufferPointer { scratch in
                guard let base = indices.baseAddress, let scratch = scratch.baseAddress else { return false }
                guard entry.interlaced else {
                    return DGifGetLine(gif, base, Int32(width * height)) == GIF_OK
                }
                let mapping = InterlacedRows(height: entry.height, interlaced: true)
                for stored in 0..<entry.height {
                    let y = mapping.row(stored)
                    guard DGifGetLine(gif, y < height ? base + y * width : scratch, Int32(width)) == GIF_OK else { return false }
                }
                return true
            }
        }
        guard decoded else { return false }
        budgetUsed += entry.width * rows
        let previous = covering?.indices ?? []
        covering = (spareIndices, lookup.colors)
        spareIndices = previous
        canvas.cover(entry)
        coveringImages += 1
        return true
    }

    /// Paints the image held as indices onto the canvas, for what reads it.
    private func settleCanvas() {
        guard let (indices, colors) = covering else { return }
        covering = nil
        canvas.pixels.withUnsafeMutableBytes { raw in
            indices.withUnsafeBufferPointer { indices in
                colors.withUnsafeBufferPointer { colors in
                    guard let target = raw.baseAddress, let first = indices.baseAddress, let colors = colors.baseAddress else { return }
                    ColorLookup.paint(first, count: min(indices.count, raw.count / 4), colors: colors, into: target)
                }
            }
        }
        spareIndices = indices
    }

    /// Points giflib at `entry`'s descriptor and reads it: the image's
    /// colors, or nil when giflib refuses it.
    private func startGiflibImage(_ entry: ImageEntry) -> ColorLookup? {
        source.offset = entry.descriptorOffset + 1
        guard DGifGetImageDesc(gif) == GIF_OK else { return nil }
        // giflib keeps a descriptor per image read for DGifSlurp; drop it.
        GifFreeSavedImages(gif)
        gif.pointee.ImageCount = 0
        return ColorLookup(map: gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap, transparentIndex: entry.transparentIndex)
    }

    /// Decodes `rows` stored rows with giflib; false when giflib fails first.
    private func decodeWithGiflib(_ entry: ImageEntry, rows: Int, lookup: ColorLookup) -> Bool {
        let width = entry.width
        let gif = gif
        return paint(entry, lookup: lookup) { buffer, batch, paintRow in
            // Rows are asked for a batch at a time: one call per row costs
            // too much for narrow images (a 1×65535 image is 65535 calls).
            var stored = 0
            while stored < rows {
                let count = min(batch, rows - stored)
                guard DGifGetLine(gif, buffer, Int32(count * width)) == GIF_OK else { return false }
                for index in 0..<count { paintRow(stored + index, buffer + index * width, width) }
                stored += count
            }
            return true
        }
    }

    private func decodeWithFallback(_ entry: ImageEntry, codeSize: Int, rows: Int, lookup: ColorLookup, number: Int) throws(GIFError) {
        guard let lzw = LZWDecoder(bytes: source.bytes, dataOffset: entry.dataOffset, dataEnd: entry.dataEnd, minimumCodeSize: codeSize) else {
            throw GIFError(.corrupt, "image \(number): LZW minimum code size \(codeSize) is out of range", offset: entry.dataOffset - 1)
        }
        let width = entry.width
        _ = paint(entry, lookup: lookup) { buffer, batch, paintRow in
            var stored = 0
            while stored < rows {
                let count = min(batch, rows - stored)
                let got = lzw.read(into: buffer, count: count * width)
                for index in 0..<(got / width) { paintRow(stored + index, buffer + index * width, width) }
                // The pixels of a last, incomplete row are drawn too, as browsers do.
                if got < count * width {
                    if got % width > 0 { paintRow(stored + got / width, buffer + got / width * width, got % width) }
                    break
                }
                stored += count
            }
            return true
        }
        if case .invalidCode(let code) = lzw.status {
            throw GIFError(.corrupt, "image \(number): invalid LZW code \(code)", offset: entry.dataOffset)
        }
    }

    /// The most pixels decoded in one call, unless a single row is longer.
    private static let batchPixels = 1 << 16

    /// Runs `decode` with a pixel buffer of `batch` whole rows and a function
    /// that paints the first `count` pixels of stored row `n` onto the canvas,
    /// clipped.
    private func paint(
        _ entry: ImageEntry, lookup: ColorLookup,
        _ decode: (UnsafeMutablePointer<UInt8>, Int, (Int, UnsafePointer<UInt8>, Int) -> Void) -> Bool
    ) -> Bool {
        let canvasWidth = canvas.width, canvasHeight = canvas.height
        let mapping = InterlacedRows(height: entry.height, interlaced: entry.interlaced)
        let left = entry.left, top = entry.top
        let visible = max(0, min(entry.width, canvasWidth - left))
        let transparent = lookup.transparent
        let batch = max(1, Self.batchPixels / max(entry.width, 1))
        if row.count < batch * entry.width { row = [UInt8](repeating: 0, count: batch * entry.width) }
        return row.withUnsafeMutableBufferPointer { rowBuffer in
            guard let buffer = rowBuffer.baseAddress else { return false }
            return lookup.colors.withUnsafeBufferPointer { colors in
                canvas.pixels.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return false }
                    return decode(buffer, batch) { stored, pixels, count in
                        let y = top + mapping.row(stored)
                        let n = min(count, visible)
                        guard y < canvasHeight, n > 0 else { return }
                        let target = base + (y * canvasWidth + left) * 4
                        if let transparent {
                            for x in 0..<n where pixels[x] != transparent {
                                target.storeBytes(of: colors[Int(pixels[x])], toByteOffset: x * 4, as: UInt32.self)
                            }
                        } else if let colors = colors.baseAddress {
                            ColorLookup.paint(pixels, count: n, colors: colors, into: target)
                        }
                    }
                }
            }
        }
    }

    private static func message(_ status: Int32) -> String {
        guard let text = GifErrorString(status) else { return "error \(status)" }
        return String(cString: text)
    }
}
