#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one frame looks like, in two 64-bit hashes made in one pass over
/// its pixels: ``gradient``, the difference hash of a 9×8 grey thumbnail
/// (which way the brightness goes between neighbouring cells), and
/// ``cosine``, a hash of the low frequencies of a 32×32 grey thumbnail
/// (the picture's structure, whatever its light does).
///
/// The two fail differently, so ``ClipHash`` judges with both. The
/// difference hash says little about a picture lit from one side: every
/// cell is brighter than its right-hand neighbour, all 64 bits are set, and
/// an orange sunset with a ball is the same as a gradient with a spider
/// (issue 28). The cosine hash compares each of the 63 lowest frequencies
/// of the cosine transform with their median, so a slope of light is one
/// coefficient of 63 and the subject sets the rest; it is the one that
/// tells such pictures apart. The difference hash is the older of the two
/// (the `hash` field of events, `seen.ndjson` and off-topic marks), so it
/// stays as it was.
///
/// Both come from the canvas as decoded (a transparent pixel as black),
/// sampled on a grid of at most 288×256 points, in integer arithmetic: the
/// same pixels always give the same hashes. A picture with too little
/// detail at 9×8 (``PerceptualHash/minimumDetail``) or a canvas under
/// 18×16 pixels has none.
public struct FrameHash: Sendable, Hashable {
    /// The difference hash ("dHash") of the 9×8 thumbnail: the `hash` field.
    public var gradient: PerceptualHash
    /// The cosine hash ("pHash") of the 32×32 thumbnail: the `hash_dct` field.
    public var cosine: PerceptualHash

    /// The cells of the cosine hash's thumbnail each way (16 on a canvas
    /// under 32 pixels that way, so that no cell is empty).
    public static let cosineCells = 32
    /// The frequencies kept each way: 8×8, less the mean (the DC term).
    public static let frequencies = 8

    /// A frame's hashes.
    public init(gradient: PerceptualHash, cosine: PerceptualHash) {
        self.gradient = gradient
        self.cosine = cosine
    }

    /// The hashes of `width`×`height` RGBA pixels (R, G, B, A bytes, rows
    /// top to bottom); nil when the canvas is smaller than the minimum, the
    /// picture has too little detail, or the buffer is shorter than the pixels.
    public static func of(rgba: UnsafeRawBufferPointer, width: Int, height: Int) -> FrameHash? {
        guard width >= PerceptualHash.minimumWidth, height >= PerceptualHash.minimumHeight, rgba.count >= width * height * 4,
              let base = rgba.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var thumbnail = Thumbnail(width: width, height: height)
        thumbnail.sample { offset in
            let pixel = base + offset * 4
            return PerceptualHash.grey(red: pixel[0], green: pixel[1], blue: pixel[2], alpha: pixel[3])
        }
        return thumbnail.hash()
    }

    /// The hashes of `width`×`height` color indices into `colors` (256 RGBA
    /// words whose bytes in memory are R, G, B, A): a frame that is one
    /// opaque image, not yet painted. Nil as for RGBA.
    static func of(indices: UnsafePointer<UInt8>, colors: UnsafePointer<UInt32>, width: Int, height: Int) -> FrameHash? {
        guard width >= PerceptualHash.minimumWidth, height >= PerceptualHash.minimumHeight else { return nil }
        // The grey of each index once, not of each pixel.
        var greys = [Int](repeating: 0, count: 256)
        for index in 0..<256 {
            let word = UInt32(littleEndian: colors[index])
            greys[index] = PerceptualHash.grey(red: UInt8(word & 0xFF), green: UInt8(word >> 8 & 0xFF), blue: UInt8(word >> 16 & 0xFF),
                                               alpha: UInt8(word >> 24))
        }
        var thumbnail = Thumbnail(width: width, height: height)
        greys.withUnsafeBufferPointer { greys in
            thumbnail.sample { greys[Int(indices[$0])] }
        }
        return thumbnail.hash()
    }

    /// The cosine basis for `cells` cells, scaled by 4096 and rounded:
    /// `table[u * cells + x]` is cos(π (2x + 1) u / 2·cells). Worked out once
    /// (the rounding makes the rest integer arithmetic).
    static func basis(cells: Int) -> [Int] {
        (0..<frequencies).flatMap { u in
            (0..<cells).map { x in Int((cos(Double.pi * Double((2 * x + 1) * u) / Double(2 * cells)) * 4096).rounded()) }
        }
    }
    static let basis32 = basis(cells: 32), basis16 = basis(cells: 16)

    /// The two thumbnails' grey sums as a canvas is sampled.
    struct Thumbnail {
        let width: Int, height: Int
        /// The cosine thumbnail's cells across and down.
        let across: Int, down: Int
        /// The sampled columns, the 9×8 cell column of each and its cosine cell column.
        private var sampledColumns: [(x: Int, cell: Int, fine: Int)] = []
        private var sums = [Int](repeating: 0, count: PerceptualHash.columns * PerceptualHash.rows)
        private var counts = [Int](repeating: 0, count: PerceptualHash.columns * PerceptualHash.rows)
        private var fineSums: [Int]
        private var fineCounts: [Int]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            across = width >= FrameHash.cosineCells ? FrameHash.cosineCells : FrameHash.cosineCells / 2
            down = height >= FrameHash.cosineCells ? FrameHash.cosineCells : FrameHash.cosineCells / 2
            fineSums = [Int](repeating: 0, count: across * down)
            fineCounts = fineSums
            let step = (width + PerceptualHash.maxSamples.across - 1) / PerceptualHash.maxSamples.across
            let across = across
            sampledColumns = stride(from: step / 2, to: width, by: step).map { ($0, $0 * PerceptualHash.columns / width, $0 * across / width) }
        }

        /// Adds the grey of every sampled pixel, `grey(offset)` for the pixel at `offset` (y × width + x).
        mutating func sample(_ grey: (Int) -> Int) {
            let step = (height + PerceptualHash.maxSamples.down - 1) / PerceptualHash.maxSamples.down
            let columns = PerceptualHash.columns
            for y in stride(from: step / 2, to: height, by: step) {
                let row = y * PerceptualHash.rows / height * columns
                let fineRow = y * down / height * across
                let start = y * width
                for (x, cell, fine) in sampledColumns {
                    let value = grey(start + x)
                    sums[row + cell] += value
                    counts[row + cell] += 1
                    fineSums[fineRow + fine] += value
                    fineCounts[fineRow + fine] += 1
                }
            }
        }

        /// The hashes; nil with fewer than ``PerceptualHash/minimumDetail``
        /// pairs of 9×8 cells telling anything.
        func hash() -> FrameHash? {
            let margin = PerceptualHash.margin * 256
            var bits: UInt64 = 0
            var detail = 0
            for row in 0..<PerceptualHash.rows {
                for column in 0..<(PerceptualHash.columns - 1) {
                    let at = row * PerceptualHash.columns + column
                    let left = sums[at] / max(1, counts[at]), right = sums[at + 1] / max(1, counts[at + 1])
                    bits = bits << 1 | (left > right + margin ? 1 : 0)
                    if abs(left - right) > margin { detail += 1 }
                }
            }
            guard detail >= PerceptualHash.minimumDetail else { return nil }
            return FrameHash(gradient: PerceptualHash(bits: bits), cosine: cosine())
        }

        /// The cosine hash: the 8×8 lowest frequencies of the thumbnail's
        /// cosine transform but the mean, each bit whether one is above
        /// their median (row of frequencies down, column across, from the
        /// highest bit; the lowest bit, the mean's place, always 0).
        func cosine() -> PerceptualHash {
            let n = FrameHash.frequencies
            let means = (0..<(across * down)).map { fineSums[$0] / max(1, fineCounts[$0]) }
            let basisAcross = across == 32 ? FrameHash.basis32 : FrameHash.basis16
            let basisDown = down == 32 ? FrameHash.basis32 : FrameHash.basis16
            // Rows first: each row's n frequencies across (at most 65 280 × 32 × 4096: no overflow).
            var rows = [Int](repeating: 0, count: down * n)
            for y in 0..<down {
                for u in 0..<n {
                    var sum = 0
                    for x in 0..<across { sum += means[y * across + x] * basisAcross[u * across + x] }
                    rows[y * n + u] = sum
                }
            }
            var coefficients: [Int] = []
            coefficients.reserveCapacity(n * n - 1)
            for v in 0..<n {
                for u in 0..<n where u + v > 0 {
                    var sum = 0
                    for y in 0..<down { sum += rows[y * n + u] / 64 * basisDown[v * down + y] }
                    coefficients.append(sum)
                }
            }
            let median = coefficients.sorted()[coefficients.count / 2]
            var bits: UInt64 = 0
            for coefficient in coefficients { bits = bits << 1 | (coefficient > median ? 1 : 0) }
            return PerceptualHash(bits: bits << 1)
        }
    }
}
