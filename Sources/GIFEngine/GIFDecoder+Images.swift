import CGif

// Drawing one image of a frame: giflib, else the fallback LZW decoder (see GIFDecoder.swift).
extension GIFDecoder {
    // MARK: Images

    /// Composites image `number` (from 1) onto the canvas.
    func draw(_ entry: ImageEntry, number: Int) throws(GIFError) {
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
    func decodeCovering(_ entry: ImageEntry) -> Bool {
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
    func settleCanvas() {
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
    func startGiflibImage(_ entry: ImageEntry) -> ColorLookup? {
        source.offset = entry.descriptorOffset + 1
        guard DGifGetImageDesc(gif) == GIF_OK else { return nil }
        // giflib keeps a descriptor per image read for DGifSlurp; drop it.
        GifFreeSavedImages(gif)
        gif.pointee.ImageCount = 0
        return ColorLookup(map: gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap, transparentIndex: entry.transparentIndex)
    }

    /// Decodes `rows` stored rows with giflib; false when giflib fails first.
    func decodeWithGiflib(_ entry: ImageEntry, rows: Int, lookup: ColorLookup) -> Bool {
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

    func decodeWithFallback(_ entry: ImageEntry, codeSize: Int, rows: Int, lookup: ColorLookup, number: Int) throws(GIFError) {
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
    func paint(
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

    static func message(_ status: Int32) -> String {
        guard let text = GifErrorString(status) else { return "error \(status)" }
        return String(cString: text)
    }
}
