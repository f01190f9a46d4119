// The running sums, spans and divisions behind ``Scaler``.

/// Per source column (four lanes: R, G, B, α), the sums over the source rows
/// of one output row, kept in three accumulators so that the common rows
/// need no multiplication and narrow lanes:
///
/// - `whole`: Σ C and Σ α of opaque rows of whole weight (`rowWhole`, the
///   weight of every row inside an output row, and of all rows at an integer
///   ratio). Their weighted sums are `rowWhole`·255·Σ C and `rowWhole`·Σ α,
///   as α = 255. An output row spans at most ⌊sourceHeight/height⌋ + 2
///   source rows, so while that is at most 257 a lane stays ≤ 257·255 =
///   65535: UInt16 is exact.
/// - `opaque`: Σ w·C and Σ w·α of the other opaque rows; their weighted sums
///   are 255·Σ w·C and Σ w·α. The weights of an output row add up to
///   `sourceHeight`, so a lane stays ≤ 255·sourceHeight: UInt32 is exact
///   while sourceHeight ≤ 16843009.
/// - `weighted`: Σ w·α·C and Σ w·α of the rest, in Int like the sums of an
///   output pixel.
///
/// Each is cleared when an output row first uses it.
struct ColumnSums {
    let lanes: Int
    let rowWhole: Int
    let wholeFits: Bool, opaqueFits: Bool
    let whole: UnsafeMutablePointer<UInt16>
    let opaque: UnsafeMutablePointer<UInt32>
    let weighted: UnsafeMutablePointer<Int>
    var hasWhole = false, hasOpaque = false, hasWeighted = false

    init(sourceWidth: Int, sourceHeight: Int, height: Int) {
        lanes = sourceWidth * 4
        rowWhole = height
        wholeFits = sourceHeight / height + 2 <= Int(UInt16.max / 255)
        opaqueFits = sourceHeight <= Int(UInt32.max / 255)
        whole = .allocate(capacity: lanes)
        opaque = .allocate(capacity: lanes)
        weighted = .allocate(capacity: lanes)
    }

    func deallocate() {
        whole.deallocate()
        opaque.deallocate()
        weighted.deallocate()
    }

    /// Starts an output row.
    mutating func clear() {
        hasWhole = false
        hasOpaque = false
        hasWeighted = false
    }

    /// Sets `whole` to the sums of `count` complete consecutive rows from
    /// byte `start` if every pixel in them is opaque (true), and leaves it
    /// unused if not (false). Called first in an output row.
    mutating func setWhole(_ source: UnsafeBufferPointer<UInt8>, from start: Int, rows count: Int) -> Bool {
        guard wholeFits, let base = source.baseAddress else { return false }
        let row = base + start
        let bytes = UnsafeRawPointer(row), target = UnsafeMutableRawPointer(whole)
        // Four pixels of every row at a time, their lanes summed in registers.
        var all = SIMD16<UInt8>(repeating: 255)
        var lane = 0
        while lane + 16 <= lanes {
            var low = SIMD8<UInt16>(), high = SIMD8<UInt16>()
            var at = lane
            for _ in 0..<count {
                let pixels = bytes.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
                all &= pixels
                low &+= SIMD8<UInt16>(truncatingIfNeeded: pixels.lowHalf)
                high &+= SIMD8<UInt16>(truncatingIfNeeded: pixels.highHalf)
                at &+= lanes
            }
            target.storeBytes(of: low, toByteOffset: lane * 2, as: SIMD8<UInt16>.self)
            target.storeBytes(of: high, toByteOffset: lane * 2 + 16, as: SIMD8<UInt16>.self)
            lane += 16
        }
        var alpha = all[3] & all[7] & all[11] & all[15]
        while lane < lanes {
            var sum: UInt16 = 0
            var at = lane
            for _ in 0..<count {
                sum &+= UInt16(row[at])
                if lane % 4 == 3 { alpha &= row[at] }
                at += lanes
            }
            whole[lane] = sum
            lane += 1
        }
        hasWhole = alpha == 255
        return hasWhole
    }

    /// Adds the first `pixels` pixels of a row of weight `weight`.
    mutating func add(_ row: UnsafePointer<UInt8>, pixels: Int, weight: Int) {
        // The alphas of every pixel ANDed and ORed, to tell opaque rows and
        // transparent rows (which add nothing) from the rest.
        var all = UInt32.max, any: UInt32 = 0
        let words = UnsafeRawPointer(row)
        for pixel in 0..<pixels {
            let word = words.loadUnaligned(fromByteOffset: pixel * 4, as: UInt32.self)
            all &= word
            any |= word
        }
        let allAlpha = UInt32(littleEndian: all) >> 24, anyAlpha = UInt32(littleEndian: any) >> 24
        let count = pixels * 4
        if anyAlpha == 0 {
            return
        } else if allAlpha == 255 && wholeFits && weight == rowWhole {
            if !hasWhole { whole.initialize(repeating: 0, count: lanes) }
            hasWhole = true
            for lane in 0..<count { whole[lane] &+= UInt16(row[lane]) }
        } else if allAlpha == 255 && opaqueFits {
            if !hasOpaque { opaque.initialize(repeating: 0, count: lanes) }
            hasOpaque = true
            var lane = 0
            if weight <= 257 {
                // w·C ≤ 257·255 fits 16 bits: 16 lanes at a time, multiplied
                // as 16-bit lanes (one instruction even without SSE4.1).
                addProducts(row, count: count & ~15, weight: UInt16(weight))
                lane = count & ~15
            }
            let weight = UInt32(weight)
            while lane < count {
                opaque[lane] &+= weight &* UInt32(row[lane])
                lane += 1
            }
        } else {
            if !hasWeighted { weighted.initialize(repeating: 0, count: lanes) }
            hasWeighted = true
            for pixel in 0..<pixels {
                let at = pixel * 4
                let alpha = weight &* Int(row[at + 3])
                weighted[at] &+= alpha &* Int(row[at])
                weighted[at + 1] &+= alpha &* Int(row[at + 1])
                weighted[at + 2] &+= alpha &* Int(row[at + 2])
                weighted[at + 3] &+= alpha
            }
        }
    }

    /// Moves the `whole` sums into `opaque` (as rowWhole·Σ C, which is
    /// Σ w·C for those rows): the output pixels then sum one array instead of
    /// two, a pass over the lanes that costs far less than the second sum per
    /// output pixel. Called once the rows of an output row are all added.
    mutating func foldWhole() {
        guard hasWhole && opaqueFits && rowWhole <= Int(UInt16.max) else { return }
        if !hasOpaque { opaque.initialize(repeating: 0, count: lanes) }
        // Both factors fit 16 bits, which lets the products vectorize.
        let weight = UInt32(UInt16(rowWhole))
        for lane in 0..<lanes { opaque[lane] &+= UInt32(whole[lane]) &* weight }
        hasWhole = false
        hasOpaque = true
    }

    /// Adds w·C to `opaque` for the first `count` (a multiple of 16) lanes of `row`.
    @inline(__always)
    private func addProducts(_ row: UnsafePointer<UInt8>, count: Int, weight: UInt16) {
        let source = UnsafeRawPointer(row), target = UnsafeMutableRawPointer(opaque)
        let weights = SIMD8<UInt16>(repeating: weight)
        var lane = 0
        while lane < count {
            let bytes = source.loadUnaligned(fromByteOffset: lane, as: SIMD16<UInt8>.self)
            let low = SIMD8<UInt16>(truncatingIfNeeded: bytes.lowHalf) &* weights
            let high = SIMD8<UInt16>(truncatingIfNeeded: bytes.highHalf) &* weights
            for (part, products) in [low.lowHalf, low.highHalf, high.lowHalf, high.highHalf].enumerated() {
                let offset = (lane + part * 4) * 4
                let sums = target.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                target.storeBytes(of: sums &+ SIMD4<UInt32>(truncatingIfNeeded: products), toByteOffset: offset, as: SIMD4<UInt32>.self)
            }
            lane += 16
        }
    }

    /// Σ w·α·R, Σ w·α·G, Σ w·α·B and Σ w·α of the output pixel whose columns
    /// are `span`. They are the plain loop's sums and every partial sum is
    /// smaller, so nothing overflows an Int where that loop did not.
    @inline(__always)
    func total(over span: Span) -> SIMD4<Int> {
        var sums = SIMD4<Int>()
        if hasWhole {
            // α = 255 in every row summed here: colours weigh 255·w, alpha w.
            sums = Self.sum(whole, over: span) &* (SIMD4(255, 255, 255, 1) &* rowWhole)
        }
        if hasOpaque {
            sums &+= Self.sum(opaque, over: span) &* SIMD4(255, 255, 255, 1)
        }
        if hasWeighted {
            sums &+= Self.sum(weighted, over: span)
        }
        return sums
    }

    /// The four lanes of `sums` across the columns of `span`, weighted: the
    /// columns inside it are added first and weighted once. A column's four
    /// lanes are one vector.
    @inline(__always)
    private static func sum<Lane: FixedWidthInteger & SIMDScalar>(_ sums: UnsafeMutablePointer<Lane>, over span: Span) -> SIMD4<Int> {
        let raw = UnsafeRawPointer(sums), stride = 4 * MemoryLayout<Lane>.size
        @inline(__always) func column(_ index: Int) -> SIMD4<Int> {
            SIMD4<Int>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: index &* stride, as: SIMD4<Lane>.self))
        }
        var inside = SIMD4<Int>()
        var at = span.first &+ 1
        while at < span.last {
            inside &+= column(at)
            at &+= 1
        }
        return column(span.first) &* span.firstWeight &+ inside &* span.whole &+ column(span.last) &* span.lastWeight
    }
}

/// The source pixels one output pixel covers along one axis, with weights.
///
/// In units of 1/target of a source pixel, output pixel `i` covers
/// `[i·source, (i+1)·source)` and source pixel `s` covers
/// `[s·target, (s+1)·target)`: overlaps are whole numbers, and the weights
/// of every output pixel add up to `source`. The covered pixels run from
/// `first` to `last`; every one between them lies wholly inside, so weighs
/// `whole` (= target), and `first` and `last` weigh at most that.
struct Span: Sendable, Equatable {
    var first: Int, last: Int
    /// The overlap of `first`, and of `last` unless it is `first` (0 then).
    var firstWeight: Int, lastWeight: Int
    var whole: Int

    func weight(of pixel: Int) -> Int { pixel == first ? firstWeight : pixel == last ? lastWeight : whole }

    /// The pixels of weight `whole`, which are consecutive.
    var wholeRange: Range<Int> {
        let lower = firstWeight == whole ? first : first + 1
        let upper = last == first || lastWeight == whole ? last + 1 : last
        return lower < upper ? lower..<upper : first..<first
    }

    static func spans(source: Int, target: Int) -> [Span] {
        (0..<target).map { output in
            let low = output * source, high = (output + 1) * source
            // first·target ≤ low < (first+1)·target and last·target < high ≤
            // (last+1)·target, so a pixel strictly between overlaps fully.
            let first = low / target, last = (high - 1) / target
            return Span(first: first, last: last, firstWeight: min(high, (first + 1) * target) - low,
                        lastWeight: last > first ? high - last * target : 0, whole: target)
        }
    }
}

/// Rounded division by a fixed positive divisor, with a multiplication
/// instead of a division.
///
/// With r = ⌊(2⁶⁴−1)/d⌋, r·d lies in [2⁶⁴−d, 2⁶⁴−1], so for n < 2⁶⁴
/// n/d − 1 < n/d − n/2⁶⁴ ≤ n·r/2⁶⁴ < n/d: q = ⌊n·r/2⁶⁴⌋ is ⌊n/d⌋ or one
/// less, and one look at the remainder n − q·d (< 2d) makes it exact.
struct Divisor {
    let divisor: Int
    private let half: UInt64, wide: UInt64, reciprocal: UInt64

    init(_ divisor: Int) {
        self.divisor = divisor
        half = UInt64(divisor / 2)
        wide = UInt64(divisor)
        reciprocal = UInt64.max / wide
    }

    /// (numerator + divisor/2) / divisor as a byte, for numerator ≥ 0.
    @inline(__always)
    func rounded(_ numerator: Int) -> UInt8 {
        let n = UInt64(bitPattern: Int64(numerator)) &+ half
        var quotient = n.multipliedFullWidth(by: reciprocal).high
        if n &- quotient &* wide >= wide { quotient &+= 1 }
        return UInt8(truncatingIfNeeded: min(quotient, 255))
    }
}

/// Where ``Scaler`` takes its source rows from.
protocol ScalerInput {
    /// The rows present in full.
    var completeRows: Int { get }
    /// Sets the `whole` sums of `sums` to those of `rows` (complete) if every
    /// pixel in them is opaque (true); false leaves them unused.
    mutating func setWhole(_ sums: inout ColumnSums, rows: Range<Int>) -> Bool
    /// Source row `row` as RGBA bytes, and its whole pixels (at most
    /// `width`); nil when it has none.
    mutating func row(_ row: Int, width: Int) -> (UnsafePointer<UInt8>, Int)?
}

/// RGBA rows, some perhaps missing at the end.
struct RGBARows: ScalerInput {
    let source: UnsafeBufferPointer<UInt8>
    let lanes: Int

    var completeRows: Int { source.count / lanes }

    func setWhole(_ sums: inout ColumnSums, rows: Range<Int>) -> Bool {
        sums.setWhole(source, from: rows.lowerBound * lanes, rows: rows.count)
    }

    func row(_ row: Int, width: Int) -> (UnsafePointer<UInt8>, Int)? {
        let start = row * lanes
        let pixels = max(0, min(width, (source.count - start) / 4))
        guard pixels > 0, let base = source.baseAddress else { return nil }
        return (base + start, pixels)
    }
}

/// Rows of color indices and their opaque colors: every row is complete.
struct IndexedRows: ScalerInput {
    let indices: UnsafePointer<UInt8>
    let width: Int
    let colors: UnsafePointer<UInt32>
    /// Each color's R, G, B, A as the 16-bit lanes of a word, laid out in
    /// memory as `whole` holds a column's lanes.
    private let wide: UnsafeMutablePointer<UInt64>
    /// One row painted, for the rows of partial weight.
    private let painted: UnsafeMutablePointer<UInt32>

    init(indices: UnsafePointer<UInt8>, width: Int, colors: UnsafePointer<UInt32>) {
        self.indices = indices
        self.width = width
        self.colors = colors
        wide = .allocate(capacity: 256)
        painted = .allocate(capacity: max(1, width))
        for index in 0..<256 {
            let bytes = unsafeBitCast(colors[index], to: SIMD4<UInt8>.self)
            wide[index] = unsafeBitCast(SIMD4<UInt16>(truncatingIfNeeded: bytes), to: UInt64.self)
        }
    }

    func deallocate() {
        wide.deallocate()
        painted.deallocate()
    }

    var completeRows: Int { Int.max }

    func setWhole(_ sums: inout ColumnSums, rows: Range<Int>) -> Bool {
        sums.setWhole(indices: indices + rows.lowerBound * width, width: width, rows: rows.count, colors: wide)
    }

    func row(_ row: Int, width: Int) -> (UnsafePointer<UInt8>, Int)? {
        ColorLookup.paint(indices + row * self.width, count: self.width, colors: colors, into: painted)
        return (UnsafeRawPointer(painted).assumingMemoryBound(to: UInt8.self), self.width)
    }
}

extension ColumnSums {
    /// `setWhole` for `count` rows of `width` color indices whose colors
    /// (`colors`: R, G, B, α in 16-bit lanes, α = 255) are all opaque: a
    /// column's four lanes are summed in one word, which cannot carry from
    /// lane to lane while `wholeFits`, and stored as it is.
    mutating func setWhole(indices: UnsafePointer<UInt8>, width: Int, rows count: Int, colors: UnsafePointer<UInt64>) -> Bool {
        guard wholeFits else { return false }
        let target = UnsafeMutableRawPointer(whole)
        var column = 0
        // Two columns at a time, for two chains of additions.
        while column + 2 <= width {
            var first: UInt64 = 0, second: UInt64 = 0
            var at = indices + column
            for _ in 0..<count {
                first &+= colors[Int(at[0])]
                second &+= colors[Int(at[1])]
                at += width
            }
            target.storeBytes(of: first, toByteOffset: column * 8, as: UInt64.self)
            target.storeBytes(of: second, toByteOffset: column * 8 + 8, as: UInt64.self)
            column += 2
        }
        if column < width {
            var sum: UInt64 = 0
            var at = indices + column
            for _ in 0..<count {
                sum &+= colors[Int(at[0])]
                at += width
            }
            target.storeBytes(of: sum, toByteOffset: column * 8, as: UInt64.self)
        }
        hasWhole = true
        return true
    }
}
