#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one frame looks like, in two 64-bit hashes made in one pass over
/// its pixels: ``gradient``, the difference hash of a 9×8 grey thumbnail
/// (which way the brightness goes between neighbouring cells), and
/// ``cosine``, a hash of the low frequencies of a 16×16 grey thumbnail
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
    /// The cosine hash ("pHash") of the 16×16 thumbnail: the `hash_dct` field.
    public var cosine: PerceptualHash

    /// The cells of the cosine hash's thumbnail each way: each the mean of
    /// the pixels it covers, so the picture is smoothed before its
    /// frequencies are taken, and the 8 lowest each way need no more.
    public static let cosineCells = 16
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

    /// The cosine basis, scaled by 4096 and rounded: `basis[u * cells + x]`
    /// is cos(π (2x + 1) u / 2·cells). Worked out once (the rounding makes
    /// the rest integer arithmetic).
    static let basis: [Int] = (0..<frequencies).flatMap { u in
        (0..<cosineCells).map { x in Int((cos(Double.pi * Double((2 * x + 1) * u) / Double(2 * cosineCells)) * 4096).rounded()) }
    }

    /// The two thumbnails' grey sums as a canvas is sampled.
    struct Thumbnail {
        let width: Int, height: Int
        /// The sampled columns, the 9×8 cell column of each and its cosine cell column.
        private var sampledColumns: [(x: Int, cell: Int, fine: Int)] = []
        private var sums = [Int](repeating: 0, count: PerceptualHash.columns * PerceptualHash.rows)
        private var counts = [Int](repeating: 0, count: PerceptualHash.columns * PerceptualHash.rows)
        private var fineSums: [Int]
        private var fineCounts: [Int]
        /// How many sampled columns fall in each column of cells, 9×8 and cosine.
        private var columnCounts = [Int](repeating: 0, count: PerceptualHash.columns)
        private var fineColumnCounts = [Int](repeating: 0, count: FrameHash.cosineCells)

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            let across = FrameHash.cosineCells
            fineSums = [Int](repeating: 0, count: across * across)
            fineCounts = fineSums
            let step = (width + PerceptualHash.maxSamples.across - 1) / PerceptualHash.maxSamples.across
            sampledColumns = stride(from: step / 2, to: width, by: step).map { ($0, $0 * PerceptualHash.columns / width, $0 * across / width) }
            for (_, cell, fine) in sampledColumns {
                columnCounts[cell] += 1
                fineColumnCounts[fine] += 1
            }
        }

        /// Adds the grey of every sampled pixel, `grey(offset)` for the pixel at `offset` (y × width + x).
        mutating func sample(_ grey: (Int) -> Int) {
            let step = (height + PerceptualHash.maxSamples.down - 1) / PerceptualHash.maxSamples.down
            let (columns, cells, height, width) = (PerceptualHash.columns, FrameHash.cosineCells, height, width)
            let (columnCounts, fineColumnCounts) = (columnCounts, fineColumnCounts)
            // The hot loop of hashing: unchecked pointers, and the counts a row at a time.
            sampledColumns.withUnsafeBufferPointer { sampled in
                sums.withUnsafeMutableBufferPointer { sums in
                    fineSums.withUnsafeMutableBufferPointer { fineSums in
                        counts.withUnsafeMutableBufferPointer { counts in
                            fineCounts.withUnsafeMutableBufferPointer { fineCounts in
                                for y in stride(from: step / 2, to: height, by: step) {
                                    let row = y * PerceptualHash.rows / height * columns
                                    let fineRow = y * cells / height * cells
                                    let start = y * width
                                    for (x, cell, fine) in sampled {
                                        let value = grey(start + x)
                                        sums[row + cell] &+= value
                                        fineSums[fineRow + fine] &+= value
                                    }
                                    for cell in 0..<columns { counts[row + cell] &+= columnCounts[cell] }
                                    for cell in 0..<cells { fineCounts[fineRow + cell] &+= fineColumnCounts[cell] }
                                }
                            }
                        }
                    }
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
            let n = FrameHash.frequencies, cells = FrameHash.cosineCells
            return FrameHash.basis.withUnsafeBufferPointer { basis in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: cells * cells + cells * n + 2 * n * n) { scratch in
                    let means = scratch.baseAddress!, rows = means + cells * cells, coefficients = rows + cells * n
                    let sorted = coefficients + n * n
                    for cell in 0..<(cells * cells) { means[cell] = fineSums[cell] / max(1, fineCounts[cell]) }
                    // Rows first: each row's n frequencies across (at most 65 280 × 16 × 4096: no overflow).
                    for y in 0..<cells {
                        for u in 0..<n {
                            var sum = 0
                            for x in 0..<cells { sum += means[y * cells + x] * basis[u * cells + x] }
                            rows[y * n + u] = sum
                        }
                    }
                    var count = 0
                    for v in 0..<n {
                        for u in 0..<n where u + v > 0 {
                            var sum = 0
                            for y in 0..<cells { sum += rows[y * n + u] / 64 * basis[v * cells + y] }
                            coefficients[count] = sum
                            sorted[count] = sum
                            count += 1
                        }
                    }
                    var order = UnsafeMutableBufferPointer(start: sorted, count: count)
                    order.sort()
                    let median = order[count / 2]
                    var bits: UInt64 = 0
                    for index in 0..<count { bits = bits << 1 | (coefficients[index] > median ? 1 : 0) }
                    return PerceptualHash(bits: bits << 1)
                }
            }
        }
    }
}
