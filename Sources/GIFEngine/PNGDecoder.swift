import CPNG

/// Decodes a PNG through libpng's simplified API, to 8-bit RGBA that is not
/// premultiplied: transparency then goes the way a GIF's does (laid over
/// the background when scaled, black in the perceptual hash).
///
/// The header (IHDR) is read first and its size checked against the limits
/// before the pixels are allocated: a 100-byte PNG that claims
/// 100000×100000 is refused as too large, having cost nothing.
final class PNGDecoder {
    /// The picture's size, from the header.
    let width: Int, height: Int
    /// At a fixed address: libpng keeps a pointer to it between the calls.
    private let image: UnsafeMutablePointer<png_image>

    /// Reads the header of the PNG in `bytes` (which must outlive the decoder).
    init(bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(GIFError) {
        let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        image.initialize(to: cpng_image())
        // Every check before the first stored property: a throw from an
        // initialized object runs deinit, which would free the image again.
        func fail(_ error: GIFError) -> GIFError {
            png_image_free(image)
            image.deallocate()
            return error
        }
        guard png_image_begin_read_from_memory(image, bytes.baseAddress, bytes.count) != 0 else {
            throw fail(GIFError(.corrupt, "not a PNG that can be read: \(Self.message(image.pointee))"))
        }
        let (width, height) = (Int(image.pointee.width), Int(image.pointee.height))
        guard width > 0, height > 0, width * height <= limits.maxCanvasPixels else {
            throw fail(GIFError(.tooLarge, "the PNG is \(width)×\(height), more than the limit of \(limits.maxCanvasPixels) pixels"))
        }
        (self.image, self.width, self.height) = (image, width, height)
    }

    deinit {
        png_image_free(image)
        image.deallocate()
    }

    /// The picture's RGBA bytes.
    func decode() throws(GIFError) -> [UInt8] {
        image.pointee.format = cpng_format_rgba()
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let image = image
        let done = rgba.withUnsafeMutableBytes { target in
            png_image_finish_read(image, nil, target.baseAddress, 0, nil)
        }
        guard done != 0 else { throw GIFError(.corrupt, "the PNG does not decode: \(Self.message(image.pointee))") }
        return rgba
    }

    /// libpng's message, kept in the image (64 bytes, NUL-terminated).
    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let text = raw.prefix { $0 != 0 }
            return text.isEmpty ? "unknown error" : String(decoding: text, as: UTF8.self)
        }
    }
}
