import FoundationEssentials
import Glibc

/// Draws pictures as real pixels, with the kitty graphics protocol or sixel.
///
/// The kitty protocol replaces image 1 in place each frame (RGB, base64, in
/// 4096-byte chunks). Sixel quantizes to the 6×6×6 colour cube and
/// run-length encodes each band of six rows. Unchanged frames are not sent.
public struct GraphicsRenderer: Sendable {
    /// The protocol used.
    public enum Kind: String, Sendable {
        case kitty, sixel
    }

    /// The protocol this renderer speaks.
    public let kind: Kind
    private var lastFrame: [UInt8] = []

    /// A renderer speaking `kind`.
    public init(kind: Kind) { self.kind = kind }

    /// Forgets what is on screen.
    public mutating func invalidate() { lastFrame = [] }

    /// The bytes that draw `picture` with its top-left corner at the cell (`row`, `col`).
    public mutating func render(_ picture: CellPicture, row: Int, col: Int) -> [UInt8] {
        guard picture.rgb != lastFrame else { return [] }
        lastFrame = picture.rgb
        var out = ByteWriter(capacity: picture.rgb.count * 2)
        out.moveTo(row: row, col: col)
        switch kind {
        case .kitty: kitty(picture, &out)
        case .sixel: sixel(picture, &out)
        }
        return out.bytes
    }

    private func kitty(_ picture: CellPicture, _ out: inout ByteWriter) {
        let payload = Data(picture.rgb).base64EncodedData()
        var offset = 0
        var first = true
        repeat {
            let end = min(offset + 4096, payload.count)
            let more = end < payload.count ? 1 : 0
            out.append("\u{1B}_G")
            if first {
                out.append("a=T,f=24,t=d,i=1,p=1,q=2,C=1,s=")
                out.append(number: picture.width)
                out.append(",v=")
                out.append(number: picture.height)
                out.append(",")
                first = false
            }
            out.append("m=")
            out.append(number: more)
            out.append(";")
            out.append(contentsOf: payload[offset..<end])
            out.append("\u{1B}\\")
            offset = end
        } while offset < payload.count
    }

    private func sixel(_ picture: CellPicture, _ out: inout ByteWriter) {
        let width = picture.width, height = picture.height
        out.append("\u{1B}P0;1;0q\"1;1;")
        out.append(number: width)
        out.append(";")
        out.append(number: height)
        // The fixed palette: 216 colours of the cube, in percent.
        for index in 0..<216 {
            out.append("#")
            out.append(number: index)
            out.append(";2;")
            out.append(number: (index / 36) * 20)
            out.append(";")
            out.append(number: (index / 6 % 6) * 20)
            out.append(";")
            out.append(number: (index % 6) * 20)
        }
        var indices = [UInt8](repeating: 0, count: width * height)
        for pixel in 0..<(width * height) {
            let r = Int(picture.rgb[pixel * 3]), g = Int(picture.rgb[pixel * 3 + 1]), b = Int(picture.rgb[pixel * 3 + 2])
            indices[pixel] = UInt8((r * 5 + 127) / 255 * 36 + (g * 5 + 127) / 255 * 6 + (b * 5 + 127) / 255)
        }
        var band = 0
        while band < height {
            var used = [Bool](repeating: false, count: 216)
            for y in band..<min(band + 6, height) {
                for x in 0..<width { used[Int(indices[y * width + x])] = true }
            }
            var firstColour = true
            for colour in 0..<216 where used[colour] {
                if !firstColour { out.append("$") }
                firstColour = false
                out.append("#")
                out.append(number: colour)
                var run = 0
                var runChar: UInt8 = 0
                for x in 0..<width {
                    var bits: UInt8 = 0
                    for bit in 0..<6 where band + bit < height && Int(indices[(band + bit) * width + x]) == colour {
                        bits |= 1 << UInt8(bit)
                    }
                    let char = 63 + bits
                    if char == runChar {
                        run += 1
                    } else {
                        emitRun(&out, run, runChar)
                        runChar = char
                        run = 1
                    }
                }
                emitRun(&out, run, runChar)
            }
            out.append("-")
            band += 6
        }
        out.append("\u{1B}\\")
    }

    private func emitRun(_ out: inout ByteWriter, _ run: Int, _ char: UInt8) {
        guard run > 0 else { return }
        if run > 3 {
            out.append("!")
            out.append(number: run)
            out.append(byte: char)
        } else {
            for _ in 0..<run { out.append(byte: char) }
        }
    }
}
