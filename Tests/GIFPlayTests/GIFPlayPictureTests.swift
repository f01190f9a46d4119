// `gif-play frames` over a JPEG against libjpeg's own djpeg (issue 31): the
// references photo-full.ppm and photo-half.ppm are `djpeg -ppm` and
// `djpeg -scale 1/2 -ppm` of photo.jpg; photo-cmyk.ppm is PIL's reading of
// photo-cmyk.jpg, photo.jpg's inks (djpeg turns no CMYK into RGB; both
// made by scripts/make-picture-fixtures).

import Foundation
import Testing
import TestSupport

@Suite struct GIFPlayPictureTests {
    /// The pixels of a binary PPM (P6, maxval 255) with its size.
    static func ppm(_ data: [UInt8]) -> (width: Int, height: Int, rgb: [UInt8])? {
        var fields: [Int] = [], at = 2, number = ""
        while fields.count < 3 && at < data.count {
            let byte = data[at]
            if byte == UInt8(ascii: "#") { while at < data.count && data[at] != 10 { at += 1 } }
            else if (48...57).contains(byte) { number.append(Character(UnicodeScalar(byte))) }
            else if !number.isEmpty { fields.append(Int(number) ?? 0); number = "" }
            at += 1
        }
        guard data.starts(with: Array("P6".utf8)), fields.count == 3, fields[2] == 255 else { return nil }
        return (fields[0], fields[1], Array(data[at...]))
    }

    @Test(arguments: [("photo.jpg", [String](), "photo-full.ppm"), ("photo.jpg", ["--size", "32x24", "--cell", "1x1"], "photo-half.ppm"),
                      ("photo-cmyk.jpg", [], "photo-cmyk.ppm"), ("photo-cmyk.jpg", [], "photo-full.ppm")])
    func aJPEGDecodesAsLibjpegDrawsIt(file: String, extra: [String], reference: String) throws {
        let files = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gif-play/files")
        try withTemporaryDirectory { folder in
            let result = try StageProcess("gif-play", arguments: ["frames", files.appendingPathComponent(file).path,
                                                                 "--out", folder.path, "--format", "ppm"] + extra).wait(timeout: 60)
            #expect(result.exitCode == 0, "\(result)")
            let ours = try #require(Self.ppm([UInt8](Data(contentsOf: folder.appendingPathComponent("frame-0000.ppm")))))
            let theirs = try #require(Self.ppm([UInt8](Data(contentsOf: files.appendingPathComponent(reference)))))
            #expect(ours.width == theirs.width && ours.height == theirs.height && ours.rgb.count == theirs.rgb.count)
            let squares = zip(ours.rgb, theirs.rgb).reduce(0) { $0 + (Int($1.0) - Int($1.1)) * (Int($1.0) - Int($1.1)) }
            let mse = Double(squares) / Double(max(1, ours.rgb.count))
            let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
            #expect(psnr >= 35, "PSNR \(psnr) dB against \(reference)")
        }
    }
}
