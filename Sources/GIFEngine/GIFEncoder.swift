import CGif

/// Writes animated GIFs with giflib: a global palette, one full-canvas image a
/// frame with its delay, and a NETSCAPE2.0 loop. Used to make the demo's
/// sample GIFs and test data; the player only reads GIFs.
public final class GIFEncoder {
    private var file: UnsafeMutablePointer<GifFileType>?
    private let width: Int
    private let height: Int
    private let path: String

    /// Starts `path` as a `width`×`height` GIF89a with `palette` (RGB triples,
    /// 2 to 256 of them, padded to a power of two) looping `loops` times (0: forever).
    public init(path: String, width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], loops: Int = 0) throws(GIFError) {
        self.width = width
        self.height = height
        self.path = path
        var error: Int32 = 0
        guard let file = EGifOpenFileName(path, false, &error) else { throw Self.error(error, "cannot create \(path)") }
        self.file = file
        EGifSetGifVersion(file, true)
        var size = 2
        while size < palette.count { size *= 2 }
        var colors = (0..<size).map { index -> GifColorType in
            let color = index < palette.count ? palette[index] : (0, 0, 0)
            return GifColorType(Red: color.0, Green: color.1, Blue: color.2)
        }
        let map = GifMakeMapObject(Int32(size), &colors)
        defer { GifFreeMapObject(map) }
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, map), "screen descriptor")
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "loop extension")
        var netscape = Array("NETSCAPE2.0".utf8)
        try check(EGifPutExtensionBlock(file, 11, &netscape), "loop extension")
        var loop: [UInt8] = [1, UInt8(loops & 0xFF), UInt8(loops >> 8 & 0xFF)]
        try check(EGifPutExtensionBlock(file, 3, &loop), "loop extension")
        try check(EGifPutExtensionTrailer(file), "loop extension")
    }

    deinit { try? close() }

    /// Adds a frame: `pixels` are palette indices, `width`×`height`, top row first.
    public func add(pixels: [UInt8], delayCentiseconds: Int) throws(GIFError) {
        guard let file else { throw GIFError(.unreadable, "\(path) is closed") }
        guard pixels.count == width * height else { throw GIFError(.corrupt, "a frame needs \(width * height) pixels") }
        var control = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                           DelayTime: Int32(delayCentiseconds), TransparentColor: NO_TRANSPARENT_COLOR)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtensionLeader(file, GRAPHICS_EXT_FUNC_CODE), "frame delay")
        try check(EGifPutExtensionBlock(file, Int32(length), &extensionBytes), "frame delay")
        try check(EGifPutExtensionTrailer(file), "frame delay")
        try check(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, nil), "image descriptor")
        var row = [UInt8](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width { row[x] = pixels[y * width + x] }
            try check(EGifPutLine(file, &row, Int32(width)), "image data")
        }
    }

    /// Finishes the file.
    public func close() throws(GIFError) {
        guard let file else { return }
        self.file = nil
        var error: Int32 = 0
        if EGifCloseFile(file, &error) != GIF_OK { throw Self.error(error, "cannot finish \(path)") }
    }

    private func check(_ result: Int32, _ what: String) throws(GIFError) {
        guard result == GIF_OK else { throw Self.error(file?.pointee.Error ?? 0, "cannot write the \(what) of \(path)") }
    }

    private static func error(_ code: Int32, _ context: String) -> GIFError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return GIFError(.unreadable, "\(context): \(message)")
    }
}
