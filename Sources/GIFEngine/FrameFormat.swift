/// File formats a frame can be written in.
public enum FrameFormat: String, Sendable, CaseIterable {
    /// Netpbm PAM, `TUPLTYPE RGB_ALPHA`: the RGBA bytes with a text header.
    case pam
    /// Netpbm binary PPM (P6): RGB, transparency laid over a background color.
    case ppm
    /// The raw RGBA bytes, no header (the pygif suite's `.rgba`).
    case rgba

    /// The file name extension.
    public var fileExtension: String { rawValue }

    /// `frame` in this format; PPM lays transparent pixels over `background`.
    public func encode(_ frame: Frame, background: RGBColor = .black) -> [UInt8] {
        switch self {
        case .rgba:
            return frame.rgba
        case .pam:
            let header = "P7\nWIDTH \(frame.width)\nHEIGHT \(frame.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
            return Array(header.utf8) + frame.rgba
        case .ppm:
            var out = Array("P6\n\(frame.width) \(frame.height)\n255\n".utf8)
            let pixels = frame.width * frame.height
            out.reserveCapacity(out.count + pixels * 3)
            let back = [Int(background.red), Int(background.green), Int(background.blue)]
            for pixel in 0..<pixels {
                let at = pixel * 4
                guard at + 3 < frame.rgba.count else {
                    out.append(contentsOf: [background.red, background.green, background.blue])
                    continue
                }
                let alpha = Int(frame.rgba[at + 3])
                for channel in 0..<3 {
                    let value = Int(frame.rgba[at + channel]) * alpha + back[channel] * (255 - alpha)
                    out.append(UInt8((value + 127) / 255))
                }
            }
            return out
        }
    }
}
