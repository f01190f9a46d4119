/// One palette for a whole GIF, made by median cut from its first frame as
/// fitted, and the nearest of its colours for any pixel (looked up once per
/// 18-bit colour, then remembered).
struct SixelPalette {
    /// The colours, 0xRRGGBB.
    let colors: [Int]
    /// Nearest colour + 1 for each 6-bit-a-channel colour, 0 before it is looked up.
    private var nearest: [UInt16]
    /// The colours' indices in order of green, and their greens: the search
    /// for the nearest starts at a pixel's green and stops where green alone
    /// is farther than the best found.
    private let byGreen: [Int], greens: [Int]

    /// Mean squared error a channel (PSNR 37.3 dB, above img2sixel's
    /// dithered 35 on photographs) below which more colours
    /// would not be seen, only sent: the palette stops growing there.
    static let goodEnough = 12.0

    /// The smallest palette of at most `count` colours (trying 48, 64, 96,
    /// 128, 192, 256) that renders `rgb` (3 bytes a pixel) within
    /// ``goodEnough``; the largest when none does. Every colour costs bytes in
    /// every band it shows in.
    init(rgb: [UInt8], count: Int) {
        let most = max(2, min(256, count))
        let sizes = [48, 64, 96, 128, 192].filter { $0 < most } + [most]
        // One median cut gives them all: each size is a later stop of the same splits.
        let cuts = Self.medianCut(rgb, counts: sizes)
        let colours = sizes.count > 1 ? ColourSums(rgb) : nil
        for (size, colors) in zip(sizes, cuts) {
            var palette = SixelPalette(colors: colors)
            if size == most || palette.error(colours ?? ColourSums(rgb)) <= Self.goodEnough {
                self = palette
                return
            }
        }
        self = SixelPalette(colors: cuts.last ?? [0])
    }

    /// A picture's pixels summed by 6-bit-a-channel colour (the palette's
    /// lookup key), so that the error of each palette tried costs a pass
    /// over its colours, not over its pixels (a picture enlarged to the
    /// screen has a quarter of a million pixels, tried against up to six
    /// palettes).
    struct ColourSums {
        /// The keys, in the order their first pixel comes.
        var keys: [Int] = []
        /// Each key's first pixel (0xRRGGBB): the one its nearest colour is looked up for.
        var first: [Int] = []
        /// Each key's pixels, and the sums of their channels.
        var count: [Int] = [], red: [Int] = [], green: [Int] = [], blue: [Int] = []
        /// The sum of every channel squared, over every pixel.
        var squares = 0
        /// Channel values in all (3 a pixel).
        var channels = 0

        /// The sums of `rgb` (3 bytes a pixel).
        init(_ rgb: [UInt8]) {
            var slot = [Int32](repeating: -1, count: 1 << 18)
            var pixel = 0
            rgb.withUnsafeBufferPointer { rgb in
                while pixel + 2 < rgb.count {
                    let r = Int(rgb[pixel]), g = Int(rgb[pixel + 1]), b = Int(rgb[pixel + 2])
                    let key = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
                    var at = Int(slot[key])
                    if at < 0 {
                        at = keys.count
                        slot[key] = Int32(at)
                        keys.append(key)
                        first.append(r << 16 | g << 8 | b)
                        count.append(0)
                        red.append(0)
                        green.append(0)
                        blue.append(0)
                    }
                    count[at] += 1
                    red[at] += r
                    green[at] += g
                    blue[at] += b
                    squares += r * r + g * g + b * b
                    pixel += 3
                }
            }
            channels = pixel
        }
    }

    private init(colors: [Int]) {
        self.colors = colors
        nearest = [UInt16](repeating: 0, count: 1 << 18)
        byGreen = colors.indices.sorted { (colors[$0] >> 8 & 0xFF, $0) < (colors[$1] >> 8 & 0xFF, $1) }
        greens = byGreen.map { colors[$0] >> 8 & 0xFF }
    }

    /// The mean squared error a channel of the picture summed in `sums`
    /// drawn with this palette: the same as pixel by pixel, since every
    /// pixel of a key is drawn with the colour looked up for its first
    /// (Σ|p − c|² = Σ|p|² − 2c·Σp + n|c|²).
    mutating func error(_ sums: ColourSums) -> Double {
        var total = sums.squares
        for at in sums.keys.indices {
            let pixel = sums.first[at]
            let color = colors[Int(index(UInt8(pixel >> 16), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)))]
            let r = color >> 16, g = color >> 8 & 0xFF, b = color & 0xFF
            total += sums.count[at] * (r * r + g * g + b * b)
            total -= 2 * (r * sums.red[at] + g * sums.green[at] + b * sums.blue[at])
        }
        return Double(total) / Double(max(1, sums.channels))
    }

    /// The index of the colour nearest to (`r`, `g`, `b`).
    @inline(__always)
    mutating func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let key = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
        let known = nearest[key]
        if known != 0 { return UInt8(known - 1) }
        let found = closest(Int(r), Int(g), Int(b))
        nearest[key] = UInt16(found) + 1
        return UInt8(found)
    }

    /// The nearest colour, as the eye weighs the channels (roughly 3:4:2),
    /// the lowest index among equals: every colour is looked at whose green
    /// alone is no farther than the best found so far, outwards from the
    /// pixel's green (a picture enlarged to the screen has tens of thousands
    /// of colours to look up, each against up to 256).
    private func closest(_ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0, bestDistance = Int.max
        // Plain index loops: an enumerated() one costs a generic-metadata
        // lookup a colour in a debug build (seconds for a picture enlarged to
        // the screen, which the real-terminal tests wait for).
        colors.withUnsafeBufferPointer { colors in
            byGreen.withUnsafeBufferPointer { byGreen in
                greens.withUnsafeBufferPointer { greens in
                    let n = greens.count
                    var low = 0, high = n
                    while low < high {
                        let middle = (low + high) / 2
                        if greens[middle] < g { low = middle + 1 } else { high = middle }
                    }
                    var up = low, down = low - 1
                    while up < n || down >= 0 {
                        for step in 0..<2 {
                            let at = step == 0 ? up : down
                            guard at >= 0 && at < n else { continue }
                            let dg = greens[at] - g
                            guard 4 * dg * dg <= bestDistance else {
                                if step == 0 { up = n } else { down = -1 }
                                continue
                            }
                            let index = byGreen[at], color = colors[index]
                            let dr = (color >> 16) - r, db = (color & 0xFF) - b
                            let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
                            if distance < bestDistance || (distance == bestDistance && index < best) {
                                bestDistance = distance
                                best = index
                            }
                            if step == 0 { up += 1 } else { down -= 1 }
                        }
                    }
                }
            }
        }
        return best
    }

    /// Median cut over a histogram of 5-bit-a-channel colours: the box with
    /// the most pixels times its widest side is split at its median along
    /// that side, until there are `count` boxes; each gives its mean colour.
    static func medianCut(_ rgb: [UInt8], count: Int) -> [Int] {
        medianCut(rgb, counts: [count])[0]
    }

    /// ``medianCut(_:count:)`` for each of `counts` (ascending), from one
    /// run of splits: a box's pixels and widest side are found once, when it
    /// is made, not again at every split.
    static func medianCut(_ rgb: [UInt8], counts: [Int]) -> [[Int]] {
        var histogram = [Int](repeating: 0, count: 1 << 15)
        var sums = [(r: Int, g: Int, b: Int)](repeating: (0, 0, 0), count: 1 << 15)
        var pixel = 0
        while pixel + 2 < rgb.count {
            let r = Int(rgb[pixel]), g = Int(rgb[pixel + 1]), b = Int(rgb[pixel + 2])
            let key = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
            histogram[key] += 1
            sums[key].r += r
            sums[key].g += g
            sums[key].b += b
            pixel += 3
        }
        struct Box {
            var keys: [Int]
            var pixels: Int, channel: Int, width: Int
        }
        func box(_ keys: [Int]) -> Box {
            let (channel, width) = widest(keys)
            return Box(keys: keys, pixels: keys.reduce(0) { $0 + histogram[$1] }, channel: channel, width: width)
        }
        let all = histogram.indices.filter { histogram[$0] > 0 }
        guard !all.isEmpty else { return counts.map { _ in [0] } }
        var boxes = [box(all)]
        // The most used colours first: their numbers are the shortest to write, band after band.
        func palette() -> [Int] {
            let weighted = boxes.map { box -> (count: Int, color: Int) in
                var n = 0, r = 0, g = 0, b = 0
                for key in box.keys {
                    n += histogram[key]
                    r += sums[key].r
                    g += sums[key].g
                    b += sums[key].b
                }
                let count = max(1, n)
                return (n, (r / count) << 16 | (g / count) << 8 | b / count)
            }
            return weighted.sorted { $0.count > $1.count }.map(\.color)
        }
        var palettes: [[Int]] = []
        for count in counts {
            while boxes.count < count {
                // The box worth splitting most: pixels × its widest side.
                var pick = -1, pickScore = 0
                for index in boxes.indices where boxes[index].keys.count > 1 {
                    let score = boxes[index].pixels * boxes[index].width
                    if score > pickScore {
                        pick = index
                        pickScore = score
                    }
                }
                guard pick >= 0 else { break }
                let shift = 10 - boxes[pick].channel * 5
                let sorted = boxes[pick].keys.sorted { ($0 >> shift) & 31 < ($1 >> shift) & 31 }
                let total = boxes[pick].pixels
                var seen = 0, cut = 1
                for (index, key) in sorted.enumerated() {
                    seen += histogram[key]
                    if seen * 2 >= total {
                        cut = max(1, min(sorted.count - 1, index + 1))
                        break
                    }
                }
                boxes[pick] = box(Array(sorted[..<cut]))
                boxes.append(box(Array(sorted[cut...])))
            }
            palettes.append(palette())
        }
        return palettes
    }

    /// The channel (0 red, 1 green, 2 blue) along which `box` is widest, and how wide.
    private static func widest(_ box: [Int]) -> (Int, Int) {
        var low = [31, 31, 31], high = [0, 0, 0]
        for key in box {
            for channel in 0..<3 {
                let value = (key >> (10 - channel * 5)) & 31
                low[channel] = min(low[channel], value)
                high[channel] = max(high[channel], value)
            }
        }
        let widths = (0..<3).map { high[$0] - low[$0] }
        let channel = widths.firstIndex(of: widths.max() ?? 0) ?? 0
        return (channel, widths[channel])
    }
}
