import GIFEngine

// The scaler as it was before its speed-up (Sources/GIFEngine/Scaler.swift at
// d504091), copied verbatim but for the names and the API the differential
// tests do not use: `ScalerDifferentialTests` holds the fast one to it byte
// for byte.

/// Resamples RGBA frames to a fixed size by area averaging, weighting each
/// pixel by its alpha, and lays the result over a background color.
///
/// Every output pixel is the exact average of the source area it covers: a
/// source pixel counts in proportion to the part of it inside that area (so
/// a one-pixel line at a 3:1 reduction stays a faint line in every frame
/// instead of flickering in and out, as point sampling makes it), and in
/// proportion to its alpha (so the color of a transparent pixel, which is
/// meaningless, never bleeds into its neighbours). All arithmetic is on
/// integers, so the same frame always gives the same bytes.
///
/// A `Scaler` is a value: make one per canvas size and screen size and share
/// it between threads freely.
struct ReferenceScaler: Sendable, Equatable {
    /// The size of the frames it takes.
    let sourceWidth: Int, sourceHeight: Int
    /// The size of the frames it makes.
    let width: Int, height: Int
    /// The color transparent areas are laid over; nil keeps alpha in the output.
    let background: RGBColor?

    private let columns: ReferenceTaps
    private let rows: ReferenceTaps

    /// A scaler from `sourceWidth`×`sourceHeight` to exactly `width`×`height`
    /// (each at least 1).
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, background: RGBColor? = .black) {
        self.sourceWidth = max(1, sourceWidth)
        self.sourceHeight = max(1, sourceHeight)
        self.width = max(1, width)
        self.height = max(1, height)
        self.background = background
        columns = ReferenceTaps(source: self.sourceWidth, target: self.width)
        rows = ReferenceTaps(source: self.sourceHeight, target: self.height)
    }

    /// `rgba` (``sourceWidth``×``sourceHeight`` pixels, R G B A bytes)
    /// resampled to ``width``×``height``. Missing source bytes count as
    /// transparent.
    func scale(_ rgba: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let lanes = width * 4
        // Per output column: Σ w·α, Σ w·α·R, Σ w·α·G, Σ w·α·B, over the
        // current output row (sums) and over one source row (line).
        let sums = UnsafeMutablePointer<Int>.allocate(capacity: lanes)
        let line = UnsafeMutablePointer<Int>.allocate(capacity: lanes)
        defer {
            sums.deallocate()
            line.deallocate()
        }
        let total = sourceWidth * sourceHeight
        var lineRow = -1
        rgba.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    sums.initialize(repeating: 0, count: lanes)
                    for tap in rows.range(y) {
                        let sourceRow = rows.index[tap], rowWeight = rows.weight[tap]
                        // Consecutive output rows share a source row at their
                        // boundary (and several when enlarging): sum it once.
                        if sourceRow != lineRow {
                            sumRow(sourceRow, of: source, into: line)
                            lineRow = sourceRow
                        }
                        for lane in 0..<lanes { sums[lane] += rowWeight * line[lane] }
                    }
                    write(sums, total: total, into: target, row: y)
                }
            }
        }
        return out
    }

    /// Turns the sums of output row `y` into pixels.
    private func write(_ sums: UnsafeMutablePointer<Int>, total: Int, into target: UnsafeMutableBufferPointer<UInt8>, row y: Int) {
        for x in 0..<width {
            let sumAlpha = sums[x * 4]
            let at = (y * width + x) * 4
            if let background {
                // The premultiplied average over the background, rounded.
                let denominator = total * 255
                let cover = denominator - sumAlpha
                target[at] = Self.rounded(sums[x * 4 + 1] + Int(background.red) * cover, denominator)
                target[at + 1] = Self.rounded(sums[x * 4 + 2] + Int(background.green) * cover, denominator)
                target[at + 2] = Self.rounded(sums[x * 4 + 3] + Int(background.blue) * cover, denominator)
                target[at + 3] = 255
            } else if sumAlpha > 0 {
                target[at] = Self.rounded(sums[x * 4 + 1], sumAlpha)
                target[at + 1] = Self.rounded(sums[x * 4 + 2], sumAlpha)
                target[at + 2] = Self.rounded(sums[x * 4 + 3], sumAlpha)
                target[at + 3] = Self.rounded(sumAlpha, total)
            }
        }
    }

    /// The horizontal sums of source row `y` for every output column.
    private func sumRow(_ y: Int, of source: UnsafeBufferPointer<UInt8>, into line: UnsafeMutablePointer<Int>) {
        let rowStart = y * sourceWidth * 4
        let complete = rowStart + sourceWidth * 4 <= source.count
        columns.index.withUnsafeBufferPointer { index in
            columns.weight.withUnsafeBufferPointer { weight in
                for x in 0..<width {
                    var alpha = 0, red = 0, green = 0, blue = 0
                    for tap in columns.range(x) {
                        let at = rowStart + index[tap] * 4
                        guard complete || at + 3 < source.count else { continue }
                        let weighted = weight[tap] * Int(source[at + 3])
                        alpha += weighted
                        red += weighted * Int(source[at])
                        green += weighted * Int(source[at + 1])
                        blue += weighted * Int(source[at + 2])
                    }
                    line[x * 4] = alpha
                    line[x * 4 + 1] = red
                    line[x * 4 + 2] = green
                    line[x * 4 + 3] = blue
                }
            }
        }
    }

    private static func rounded(_ numerator: Int, _ denominator: Int) -> UInt8 {
        UInt8(clamping: (numerator + denominator / 2) / denominator)
    }
}

/// The source pixels each output pixel covers along one axis, with weights.
///
/// In units of 1/target of a source pixel, output pixel `i` covers
/// `[i·source, (i+1)·source)` and source pixel `s` covers
/// `[s·target, (s+1)·target)`: overlaps are whole numbers, and the weights
/// of every output pixel add up to `source`.
private struct ReferenceTaps: Sendable, Equatable {
    var start: [Int] = []
    var index: [Int] = []
    var weight: [Int] = []

    init(source: Int, target: Int) {
        for output in 0..<target {
            start.append(index.count)
            let low = output * source, high = (output + 1) * source
            for pixel in (low / target)...((high - 1) / target) {
                let overlap = min(high, (pixel + 1) * target) - max(low, pixel * target)
                if overlap > 0 {
                    index.append(pixel)
                    weight.append(overlap)
                }
            }
        }
        start.append(index.count)
    }

    func range(_ output: Int) -> Range<Int> { start[output]..<start[output + 1] }
}
