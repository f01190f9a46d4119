// The decoders of issue 31 (JPEG, PNG, WebP) beside the GIF one: the format
// told by the first bytes, the same frames, limits and hashes. Their runs
// through `gif-play frames` and the player are cases in
// Tests/Fixtures/gif-play/ (frames-a-jpeg-*, frames-a-png-*, stills-*);
// the pictures are made by scripts/make-picture-fixtures.

import Foundation
import Testing
@testable import GIFEngine

/// Tests/Fixtures/gif-play/files/`name`.
func pictureFixture(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return try [UInt8](Data(contentsOf: root.appendingPathComponent("Fixtures/gif-play/files/\(name)")))
}

/// A WebP of `count` frames, each `frame` (the VP8 or VP8L chunk of a still
/// WebP, of `width`×`height`), 10 ms apiece: built here, byte by byte, as
/// no encoder writes 10 000 frames quickly.
func animatedWebP(frames count: Int, frame: [UInt8], width: Int, height: Int) -> [UInt8] {
    func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    func chunk(_ tag: String, _ body: [UInt8]) -> [UInt8] {
        Array(tag.utf8) + le(body.count, 4) + body + (body.count % 2 == 1 ? [0] : [])
    }
    let vp8x = chunk("VP8X", [0x02, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))  // the animation flag
    let anim = chunk("ANIM", [0, 0, 0, 0] + le(0, 2))
    let anmf = chunk("ANMF", le(0, 3) + le(0, 3) + le(width - 1, 3) + le(height - 1, 3) + le(10, 3) + [0] + frame)
    var body = Array("WEBP".utf8) + vp8x + anim
    body.reserveCapacity(body.count + anmf.count * count)
    for _ in 0..<count { body += anmf }
    return Array("RIFF".utf8) + le(body.count, 4) + body
}

@Suite struct PictureDecoderTests {
    @Test(arguments: [
        ("GIF89a", ImageFormat.gif), ("GIF87a", .gif), ("\u{FF}\u{D8}\u{FF}\u{E0}", .jpeg),
        ("\u{89}PNG\r\n\u{1A}\n", .png), ("RIFF\0\0\0\0WEBP", .webp),
    ] as [(String, ImageFormat?)] + [("RIFF\0\0\0\0WAVE", nil), ("<html>", nil), ("GIF90a", nil), ("", nil)])
    func theFormatIsToldByTheFirstBytes(head: String, format: ImageFormat?) {
        // Latin-1: each scalar one byte.
        #expect(ImageFormat.sniff(head.unicodeScalars.map { UInt8($0.value) }) == format)
    }

    @Test(arguments: ["photo.jpg", "a-jpeg-named.png", "spider.png", "still.webp", "anim.webp"])
    func everyFormatGivesFramesOfTheGIFPathsShape(name: String) throws {
        let decoded = PictureDecoder.decodeAll(bytes: try pictureFixture(name))
        let info = try #require(decoded.info)
        #expect(decoded.error == nil)
        #expect(decoded.frames.count == info.frameCount)
        for frame in decoded.frames {
            #expect(frame.width == info.width && frame.height == info.height && frame.rgba.count == info.width * info.height * 4)
        }
        if name.hasSuffix(".png") && name.hasPrefix("spider") {
            // Transparent where nothing was drawn, as a GIF's transparent pixels are.
            #expect(decoded.frames[0].rgba[3] == 0)
        }
    }

    /// The perceptual hash works on decoded frames, whatever their format:
    /// the JPEG has one, and the same JPEG decoded at ½ hashes a few bits off.
    @Test func aJPEGIsHashedAndItsHalfSizeDecodeHashesAlike() throws {
        let bytes = try pictureFixture("photo.jpg")
        let full = try PictureDecoder(bytes: bytes)
        _ = try full.nextFrame()
        let half = try PictureDecoder(bytes: bytes)
        half.decodeAtLeast(width: 30, height: 20)
        #expect(half.info.width == 32 && half.info.height == 24)
        _ = try half.nextFrame()
        let (a, b) = (try #require(full.frameHash()), try #require(half.frameHash()))
        #expect(a.gradient.distance(to: b.gradient) <= 6)
        let webp = try PictureDecoder(bytes: try pictureFixture("anim.webp"))
        _ = try webp.nextFrame()
        #expect(webp.frameHash() != nil)
    }

    @Test func aJPEGIsDecodedAtTheSmallestReductionNotBelowTheSizeNeeded() throws {
        let decoder = try PictureDecoder(bytes: try pictureFixture("photo.jpg"))
        decoder.decodeAtLeast(width: 9, height: 5)
        #expect((decoder.info.width, decoder.info.height) == (16, 12))  // ¼: ⅛ (8×6) is below 9 wide
        decoder.decodeAtLeast(width: 100, height: 100)                   // never back up, nor past full size
        #expect(decoder.info.width == 16)
    }

    /// A WebP of 10 000 frames (issue 31): the frame limit refuses it before
    /// any frame; under it, the pixel budget ends it with too_large after the
    /// frames it paid for, never holding more than one.
    @Test func aWebPOfTenThousandFramesStopsAtTheLimits() throws {
        let still = try pictureFixture("still.webp")
        let bytes = animatedWebP(frames: 10_000, frame: Array(still[12...]), width: 24, height: 16)
        let refused = PictureDecoder.decodeAll(bytes: bytes, options: DecodeOptions(limits: DecodeLimits(maxImages: 1000)))
        #expect(refused.info == nil && refused.error?.code == "too_large" && refused.error?.message.contains("10000 frames") == true)

        let budget = DecodeLimits(maxTotalPixels: 2 * 24 * 16 * 100)
        let decoder = try PictureDecoder(bytes: bytes, options: DecodeOptions(limits: budget))
        #expect(decoder.info.frameCount == 10_000)
        var frames = 0
        #expect(throws: GIFError.self) { while try decoder.nextFrame() != nil { frames += 1 } }
        #expect(frames == 100)
        #expect(try decoder.nextFrame() == nil)
    }

    /// Regression: a decoder refusing a picture too large after its C
    /// object was made freed it twice (once more in deinit, which a throw
    /// from an initialized class runs): the 10 000-frame WebP crashed.
    @Test(arguments: ["photo.jpg", "spider.png", "anim.webp"])
    func aPictureOverTheCanvasLimitIsTooLargeAndFreedOnce(name: String) throws {
        let options = DecodeOptions(limits: DecodeLimits(maxCanvasPixels: 100, maxImages: 2))
        #expect(PictureDecoder.decodeAll(bytes: try pictureFixture(name), options: options).error?.code == "too_large")
    }

    @Test(arguments: [
        ("photo-cut.jpg", "decode_failed"), ("bomb.png", "too_large"), ("random.bin", "not_gif"),
        ("page.gif", "not_gif"), ("truncated.gif", "decode_failed"),
    ])
    func aBadFileIsOneOfTheGIFPathsErrors(name: String, code: String) throws {
        var bytes = try pictureFixture(name)
        #expect(PictureDecoder.decodeAll(bytes: bytes).error?.code == code)
        // Cut anywhere, a picture is a clear error or its frames, never a crash.
        bytes = try pictureFixture(name == "bomb.png" ? "spider.png" : "anim.webp")
        for end in stride(from: 0, to: bytes.count, by: 37) {
            let cut = PictureDecoder.decodeAll(bytes: Array(bytes[..<end]))
            #expect(cut.error != nil || !cut.frames.isEmpty)
        }
    }

    /// A CMYK JPEG's inks become light as browsers turn them without a
    /// profile; an Adobe file stores them inverted (255: no ink). The Adobe
    /// case end to end: GIFPlayPictureTests' photo-cmyk.jpg.
    @Test func inksBecomeLightStoredPlainOrInverted() {
        // No ink, full cyan, half black, full black; as stored plainly.
        var plain: [UInt8] = [0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 128, 0, 0, 0, 255]
        JPEGDecoder.light(fromInks: &plain, inverted: false)
        #expect(plain == [255, 255, 255, 255, 0, 255, 255, 255, 127, 127, 127, 255, 0, 0, 0, 255])
        var inverted: [UInt8] = [255, 255, 255, 255, 0, 255, 255, 255, 255, 255, 255, 127, 255, 255, 255, 0]
        JPEGDecoder.light(fromInks: &inverted, inverted: true)
        #expect(inverted == [255, 255, 255, 255, 0, 255, 255, 255, 127, 127, 127, 255, 0, 0, 0, 255])
    }

    /// Adobe's APP14 segment is found past other segments and fill bytes,
    /// and not inside the image data or past the end of a cut file.
    @Test func theAdobeSegmentIsFoundOnlyBeforeTheScan() {
        let adobe: [UInt8] = [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0]
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
        func found(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { JPEGDecoder.hasAdobeMarker($0) } }
        #expect(found([0xFF, 0xD8] + app0 + [0xFF] + adobe))
        #expect(!found([0xFF, 0xD8] + app0 + [0xFF, 0xDA, 0x00, 0x02] + adobe))
        #expect(!found([0xFF, 0xD8] + app0))
        #expect(!found([0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x0E, 0x41]))
    }
}
