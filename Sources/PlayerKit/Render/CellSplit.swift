/// The best two-colour picture of one cell: which of its pixels take one
/// colour and which the other, and the two colours, with the least squared
/// error over the pixels (each colour the mean of its group).
///
/// Every split of the cell's pixels into two groups is tried (64 for an
/// octant cell, as a split and its complement are one); the sums of each
/// group come from those of a smaller group plus one pixel, three channels
/// in one 64-bit word, so a split costs a few multiplications. The squared
/// error of a split is the pixels' total sum of squares less
/// |S₁|²/n₁ + |S₀|²/n₀ (S the channel sums of a group, n its pixels): the
/// best split is the one with the largest of these, compared exactly in
/// integers.
struct CellSplit: Equatable {
    /// The pixels (bit `y × width + x`) that show ``inside``; bit 0 is always
    /// set, and all bits are when the cell is one colour.
    var pattern: Int
    /// The colour of the pattern's pixels, 0xRRGGBB.
    var inside: Int
    /// The colour of the other pixels (``inside`` when there are none).
    var outside: Int

    /// 840 / n for n = 1…8 (840 is the least common multiple of 1…8), the
    /// weights that make |S|²/n an integer.
    private static let weight: [Int] = [0, 840, 420, 280, 210, 168, 140, 120, 105]

    /// The best split of the `count` (1…8) 0xRRGGBB pixels at `pixels`.
    @inline(__always)
    static func best(_ pixels: UnsafePointer<Int>, count: Int) -> CellSplit {
        let full = 1 << count &- 1
        let first = pixels[0]
        var uniform = true
        for index in 1..<count where pixels[index] != first { uniform = false }
        if uniform { return CellSplit(pattern: full, inside: first, outside: first) }
        if count == 2 { return CellSplit(pattern: 1, inside: first, outside: pixels[1]) }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 128) { sums in
            search(pixels, count: count, sums: sums.baseAddress!)
        }
    }

    /// Three 8-bit channels spread into 21-bit fields, so that sums of up to
    /// 8 pixels (at most 2040 a channel) add without carrying into each other.
    @inline(__always)
    private static func spread(_ rgb: Int) -> UInt64 {
        UInt64(rgb >> 16 & 0xFF) << 42 | UInt64(rgb >> 8 & 0xFF) << 21 | UInt64(rgb & 0xFF)
    }

    /// |S|² of spread sums.
    @inline(__always)
    private static func squared(_ sum: UInt64) -> Int {
        let r = Int(sum >> 42), g = Int(sum >> 21 & 0x1F_FFFF), b = Int(sum & 0x1F_FFFF)
        return r &* r &+ g &* g &+ b &* b
    }

    /// The exhaustive search: the splits with the last pixel outside, each
    /// group's sums built from a smaller one's.
    @inline(__always)
    private static func search(_ pixels: UnsafePointer<Int>, count: Int, sums: UnsafeMutablePointer<UInt64>) -> CellSplit {
        let splits = 1 << (count - 1)
        var total: UInt64 = 0
        for index in 0..<count { total &+= spread(pixels[index]) }
        sums[0] = 0
        var bestPattern = 0, bestScore = -1
        for pattern in 1..<splits {
            let sum = sums[pattern & (pattern &- 1)] &+ spread(pixels[pattern.trailingZeroBitCount])
            sums[pattern] = sum
            let inside = pattern.nonzeroBitCount
            let score = squared(sum) &* weight[inside] &+ squared(total &- sum) &* weight[count - inside]
            if score > bestScore {
                bestScore = score
                bestPattern = pattern
            }
        }
        let inside = bestPattern.nonzeroBitCount
        var a = mean(sums[bestPattern], inside), b = mean(total &- sums[bestPattern], count - inside)
        var pattern = bestPattern
        if pattern & 1 == 0 {
            pattern ^= 1 << count &- 1
            swap(&a, &b)
        }
        return CellSplit(pattern: pattern, inside: a, outside: b)
    }

    /// The rounded mean of `n` pixels' spread sums, as 0xRRGGBB.
    @inline(__always)
    private static func mean(_ sum: UInt64, _ n: Int) -> Int {
        let r = (Int(sum >> 42) + n / 2) / n, g = (Int(sum >> 21 & 0x1F_FFFF) + n / 2) / n
        let b = (Int(sum & 0x1F_FFFF) + n / 2) / n
        return r << 16 | g << 8 | b
    }
}
