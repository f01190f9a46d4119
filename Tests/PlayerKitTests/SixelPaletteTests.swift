@testable import PlayerKit
import Testing

@Suite struct SixelPaletteTests {
    /// The error of a palette from the picture's colour sums is exactly the
    /// pixel-by-pixel one (it decides how many colours a GIF gets).
    @Test func theErrorFromColourSumsIsThePixelByPixelOne() {
        let rgb = photoFrame(width: 64, height: 48, frame: 3).rgb
        for count in [16, 48, 256] {
            var palette = SixelPalette(rgb: rgb, count: count)
            var sum = 0
            for pixel in 0..<(64 * 48) {
                let r = rgb[pixel * 3], g = rgb[pixel * 3 + 1], b = rgb[pixel * 3 + 2]
                let color = palette.colors[Int(palette.index(r, g, b))]
                let dr = Int(r) - color >> 16, dg = Int(g) - (color >> 8 & 0xFF), db = Int(b) - (color & 0xFF)
                sum += dr * dr + dg * dg + db * db
            }
            #expect(palette.error(SixelPalette.ColourSums(rgb)) == Double(sum) / Double(rgb.count))
        }
    }

    /// Each palette size tried is a later stop of the same median cut.
    @Test func theSizesTriedAreStopsOfOneMedianCut() {
        let rgb = photoFrame(width: 64, height: 48, frame: 1).rgb
        let cuts = SixelPalette.medianCut(rgb, counts: [48, 64, 96])
        #expect(cuts.map(\.count) == [48, 64, 96])
        #expect(cuts[1] == SixelPalette.medianCut(rgb, count: 64))
    }

    /// The nearest colour is the one with the least weighted distance
    /// (3:4:2), the lowest index among equals, as a look at every colour finds.
    @Test func theNearestColourIsTheOneEveryColourLookedAtFinds() {
        var palette = SixelPalette(rgb: photoFrame(width: 64, height: 48, frame: 0).rgb, count: 64)
        var seed: UInt32 = 99
        for _ in 0..<2000 {
            seed = seed &* 1_103_515_245 &+ 12345
            // One colour a lookup key (6 bits a channel): each looked up afresh.
            let r = UInt8(truncatingIfNeeded: seed >> 8) & 0xFC, g = UInt8(truncatingIfNeeded: seed >> 16) & 0xFC
            let b = UInt8(truncatingIfNeeded: seed >> 24) & 0xFC
            var best = 0, bestDistance = Int.max
            for (index, color) in palette.colors.enumerated() {
                let dr = (color >> 16) - Int(r), dg = (color >> 8 & 0xFF) - Int(g), db = (color & 0xFF) - Int(b)
                let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
                if distance < bestDistance { (best, bestDistance) = (index, distance) }
            }
            #expect(Int(palette.index(r, g, b)) == best)
        }
    }
}
