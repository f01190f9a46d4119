import Testing
import TestSupport
@testable import GIFEngine

/// The fast `Scaler` held to `ReferenceScaler`, the straightforward loop it
/// replaced: every byte must agree, whatever the sizes, alphas and background.
@Suite struct ScalerDifferentialTests {
    /// A source size and a target size.
    struct Sizes: Sendable, CustomStringConvertible {
        var sourceWidth: Int, sourceHeight: Int, width: Int, height: Int

        init(_ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int) {
            (self.sourceWidth, self.sourceHeight, self.width, self.height) = (sourceWidth, sourceHeight, width, height)
        }

        var description: String { "\(sourceWidth)×\(sourceHeight)→\(width)×\(height)" }
    }

    /// How a frame's alphas are drawn.
    enum Alphas: CaseIterable {
        /// 255 everywhere, as most frames are after compositing.
        case opaque
        /// Opaque but for one pixel of random alpha.
        case oneHole
        /// Each row opaque, transparent or mixed, as a sticker's often are.
        case rows
        /// 0 or 255, now and then something between.
        case mostlyBinary
        /// Any byte.
        case random
        /// Random alphas in an array cut short anywhere, even inside a pixel.
        case short
    }

    /// The sizes gif-play meets, and the awkward ones: enlarging, 1-pixel
    /// sides, ratios past 255:1, sizes that are not multiples of four.
    static let namedSizes = [
        Sizes(320, 240, 80, 60), Sizes(640, 480, 160, 96), Sizes(640, 480, 80, 60), Sizes(100, 100, 80, 60),
        Sizes(7, 3, 80, 60), Sizes(1, 1, 1, 1), Sizes(1, 1, 80, 60), Sizes(80, 60, 1, 1), Sizes(80, 60, 80, 60),
        Sizes(498, 280, 80, 45), Sizes(80, 60, 160, 120), Sizes(3, 600, 2, 2), Sizes(1000, 2, 3, 1),
        Sizes(5, 7, 3, 2), Sizes(17, 13, 5, 4), Sizes(2, 1, 1, 1), Sizes(1, 513, 1, 2),
    ]

    static let backgrounds: [RGBColor?] = [nil, .black, RGBColor(red: 255, green: 255, blue: 255), RGBColor(red: 30, green: 144, blue: 7)]

    @Test(arguments: namedSizes) func namedSizesGiveTheReferenceBytes(sizes: Sizes) {
        var random = SplitMix64(seed: UInt64(sizes.sourceWidth * 7919 + sizes.sourceHeight * 31 + sizes.width * 17 + sizes.height))
        for alphas in Alphas.allCases {
            let rgba = Self.frame(sizes, alphas, using: &random)
            for background in Self.backgrounds {
                expectReferenceBytes(sizes, background, rgba, "\(alphas)")
            }
        }
    }

    @Test func randomSizesGiveTheReferenceBytes() {
        var random = SplitMix64(seed: 20_240_917)
        for round in 0..<400 {
            // Mostly small, so that rounding and short spans are common; a
            // few large, so that long spans are tried too.
            let large = round % 8 == 0
            let sizes = Sizes(Int.random(in: 1...(large ? 400 : 40), using: &random), Int.random(in: 1...(large ? 400 : 40), using: &random),
                              Int.random(in: 1...(large ? 120 : 50), using: &random), Int.random(in: 1...(large ? 90 : 50), using: &random))
            let alphas = Alphas.allCases[round % Alphas.allCases.count]
            let rgba = Self.frame(sizes, alphas, using: &random)
            let background = Self.backgrounds[Int.random(in: 0..<Self.backgrounds.count, using: &random)]
            expectReferenceBytes(sizes, background, rgba, "round \(round), \(alphas)")
        }
    }

    @Test func missingBytesCountAsTransparentAsTheyDid() {
        let sizes = Sizes(9, 5, 4, 2)
        var random = SplitMix64(seed: 5)
        let full = Self.frame(sizes, .opaque, using: &random)
        for count in 0...full.count {
            for background in Self.backgrounds {
                expectReferenceBytes(sizes, background, Array(full.prefix(count)), "\(count) bytes")
            }
        }
    }

    /// Records an issue naming the case and the first byte that differs.
    private func expectReferenceBytes(_ sizes: Sizes, _ background: RGBColor?, _ rgba: [UInt8], _ what: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = ReferenceScaler(sourceWidth: sizes.sourceWidth, sourceHeight: sizes.sourceHeight,
                                        width: sizes.width, height: sizes.height, background: background).scale(rgba)
        let fast = Scaler(sourceWidth: sizes.sourceWidth, sourceHeight: sizes.sourceHeight,
                          width: sizes.width, height: sizes.height, background: background).scale(rgba)
        guard fast != reference else { return }
        let at = (0..<min(fast.count, reference.count)).first { fast[$0] != reference[$0] } ?? min(fast.count, reference.count)
        func byte(_ bytes: [UInt8]) -> String { at < bytes.count ? "\(bytes[at])" : "missing" }
        let message = "\(sizes), \(what), background \(background.map(\.description) ?? "nil"): "
            + "byte \(at) of \(reference.count) is \(byte(fast)), not \(byte(reference))"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    private static func frame(_ sizes: Sizes, _ alphas: Alphas, using random: inout SplitMix64) -> [UInt8] {
        let pixels = sizes.sourceWidth * sizes.sourceHeight
        var rgba = (0..<(pixels * 4)).map { _ in UInt8.random(in: 0...255, using: &random) }
        func setAlpha(_ pixel: Int, _ alpha: UInt8) { rgba[pixel * 4 + 3] = alpha }
        switch alphas {
        case .opaque:
            for pixel in 0..<pixels { setAlpha(pixel, 255) }
        case .oneHole:
            for pixel in 0..<pixels { setAlpha(pixel, 255) }
            setAlpha(Int.random(in: 0..<pixels, using: &random), UInt8.random(in: 0...254, using: &random))
        case .rows:
            for y in 0..<sizes.sourceHeight {
                let kind = Int.random(in: 0..<3, using: &random)
                for x in 0..<sizes.sourceWidth where kind < 2 { setAlpha(y * sizes.sourceWidth + x, kind == 0 ? 255 : 0) }
            }
        case .mostlyBinary, .short:
            for pixel in 0..<pixels {
                let draw = Int.random(in: 0..<16, using: &random)
                setAlpha(pixel, draw == 0 ? UInt8.random(in: 1...254, using: &random) : draw < 4 ? 0 : 255)
            }
            if alphas == .short { rgba.removeLast(Int.random(in: 1...rgba.count, using: &random)) }
        case .random:
            break
        }
        return rgba
    }
}
