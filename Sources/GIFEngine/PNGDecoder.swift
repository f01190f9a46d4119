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
    private var image: png_image

    /// Reads the header of the PNG in `bytes` (which must outlive the decoder).
    init(bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(GIFError) {
        image = cpng_image()
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            let message = Self.message(image)
            png_image_free(&image)
            throw GIFError(.corrupt, "not a PNG that can be read: \(message)")
        }
        (width, height) = (Int(image.width), Int(image.height))
        guard width > 0, height > 0, width * height <= limits.maxCanvasPixels else {
            png_image_free(&image)
            throw GIFError(.tooLarge, "the PNG is \(width)×\(height), more than the limit of \(limits.maxCanvasPixels) pixels")
        }
    }

    deinit { png_image_free(&image) }

    /// The picture's RGBA bytes.
    func decode() throws(GIFError) -> [UInt8] {
        image.format = cpng_format_rgba()
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let done = rgba.withUnsafeMutableBytes { target in
            png_image_finish_read(&image, nil, target.baseAddress, 0, nil)
        }
        guard done != 0 else { throw GIFError(.corrupt, "the PNG does not decode: \(Self.message(image))") }
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
