import CTurboJPEG

/// Decodes a JPEG through libjpeg-turbo's TurboJPEG API, at full size or
/// reduced by ½, ¼ or ⅛ while decoding (the DCT scaled down, no pixel of the
/// full size ever made): a 1920-px photograph shown in 480 pixels costs a
/// quarter decode.
///
/// The header is read first and its size checked against the limits, so a
/// file that claims a gigapixel canvas is refused before any allocation.
final class JPEGDecoder {
    /// The picture's full size, from the header.
    let fullWidth: Int, fullHeight: Int
    /// The size it decodes to: the full size reduced by ``denominator``.
    private(set) var width: Int, height: Int
    /// 1, 2, 4 or 8.
    private(set) var denominator = 1

    private let handle: tjhandle
    private let bytes: UnsafeRawBufferPointer
    /// Whether its pixels are inks (CMYK, or YCCK: scans and photographs
    /// made for print), decoded as such and turned into light.
    private let inks: Bool

    /// Reads the header of the JPEG in `bytes` (which must outlive the decoder).
    init(bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(GIFError) {
        guard let handle = tjInitDecompress() else {
            throw GIFError(.corrupt, "TurboJPEG: \(String(cString: tjGetErrorStr2(nil)))")
        }
        // Every check before the first stored property: a throw from an
        // initialized object runs deinit, which would free the handle again.
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard tjDecompressHeader3(handle, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            let message = Self.message(handle)
            tjDestroy(handle)
            throw GIFError(.corrupt, "not a JPEG that can be read: \(message)")
        }
        // Checked at full size: libjpeg's work, and a progressive file's
        // coefficient buffers, grow with it whatever the reduction.
        guard width > 0, height > 0, Int(width) * Int(height) <= limits.maxCanvasPixels else {
            tjDestroy(handle)
            throw GIFError(.tooLarge, "the JPEG is \(width)×\(height), more than the limit of \(limits.maxCanvasPixels) pixels")
        }
        self.handle = handle
        self.bytes = bytes
        inks = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        (fullWidth, fullHeight) = (Int(width), Int(height))
        (self.width, self.height) = (fullWidth, fullHeight)
    }

    deinit { tjDestroy(handle) }

    /// Decodes at the smallest reduction (½, ¼, ⅛) not below `neededWidth`×`neededHeight`.
    func reduce(toAtLeast neededWidth: Int, _ neededHeight: Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return }
        for index in 0..<Int(count) {
            let factor = factors[index]
            let denominator = Int(factor.denom)
            guard factor.num == 1, [2, 4, 8].contains(denominator), denominator > self.denominator else { continue }
            let (scaledWidth, scaledHeight) = (Self.scaled(fullWidth, denominator), Self.scaled(fullHeight, denominator))
            if scaledWidth >= neededWidth && scaledHeight >= neededHeight {
                self.denominator = denominator
                (width, height) = (scaledWidth, scaledHeight)
            }
        }
    }

    /// TJSCALED: a dimension reduced by 1/`denominator`, rounded up.
    static func scaled(_ dimension: Int, _ denominator: Int) -> Int { (dimension + denominator - 1) / denominator }

    /// The picture's RGBA bytes (every alpha 255), at ``width``×``height``.
    func decode() throws(GIFError) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let (width, height, handle, bytes) = (width, height, handle, bytes)
        // libjpeg turns no CMYK into RGB: such a file decodes to its inks,
        // four bytes a pixel like RGBA, turned into light below.
        let format = inks ? TJPF_CMYK : TJPF_RGBA
        // LIMITSCANS: a progressive file of thousands of scans (a few KB
        // that decode for minutes) is refused after 500.
        let status = rgba.withUnsafeMutableBufferPointer { target in
            tjDecompress2(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), target.baseAddress,
                          Int32(width), 0, Int32(height), Int32(format.rawValue), TJFLAG_LIMITSCANS)
        }
        if inks { Self.light(fromInks: &rgba, inverted: Self.hasAdobeMarker(bytes)) }
        if status != 0 {
            let message = Self.message(handle)
            // A warning leaves the picture whole, but for a file cut short:
            // libjpeg fills the rest grey, which is not a picture to show.
            if tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) || message.contains("Premature end") {
                throw GIFError(.corrupt, "the JPEG does not decode: \(message)")
            }
        }
        return rgba
    }

    /// Turns CMYK pixels into RGBA in place, as browsers do without a
    /// colour profile: each channel is the light its ink and the black leave,
    /// (255 − C)(255 − K)/255. An Adobe file (APP14, what Photoshop and most
    /// tools write) stores its inks inverted, 255 for none.
    static func light(fromInks pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for at in stride(from: 0, to: buffer.count - 3, by: 4) {
                var (c, m, y, k) = (Int(buffer[at]), Int(buffer[at + 1]), Int(buffer[at + 2]), Int(buffer[at + 3]))
                if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
                buffer[at] = UInt8((c * k + 127) / 255)
                buffer[at + 1] = UInt8((m * k + 127) / 255)
                buffer[at + 2] = UInt8((y * k + 127) / 255)
                buffer[at + 3] = 255
            }
        }
    }

    /// Whether the JPEG has Adobe's APP14 segment before its image data.
    static func hasAdobeMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            if bytes[at + 1] == 0xFF { at += 1; continue }  // a fill byte before the marker
            let marker = bytes[at + 1]
            if marker == 0xDA || marker == 0xD9 { return false }  // the scan, or the end
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if marker == 0xEE, length >= 7, at + 9 <= bytes.count,
               Array(bytes[(at + 4)..<(at + 9)]) == Array("Adobe".utf8) { return true }
            at += 2 + max(length, 2)
        }
        return false
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
