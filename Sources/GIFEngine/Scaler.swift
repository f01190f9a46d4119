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
public struct Scaler: Sendable, Equatable {
    /// The size of the frames it takes.
    public let sourceWidth: Int, sourceHeight: Int
    /// The size of the frames it makes.
    public let width: Int, height: Int
    /// The color transparent areas are laid over; nil keeps alpha in the output.
    public let background: RGBColor?

    private let columns: [Span]
    private let rows: [Span]

    /// A scaler from `sourceWidth`×`sourceHeight` to exactly `width`×`height`
    /// (each at least 1).
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, background: RGBColor? = .black) {
        self.sourceWidth = max(1, sourceWidth)
        self.sourceHeight = max(1, sourceHeight)
        self.width = max(1, width)
        self.height = max(1, height)
        self.background = background
        columns = Span.spans(source: self.sourceWidth, target: self.width)
        rows = Span.spans(source: self.sourceHeight, target: self.height)
    }

    /// A scaler that fits `sourceWidth`×`sourceHeight` into `columns`×`rows`
    /// terminal cells of `cell` pixels each, keeping the aspect ratio on
    /// screen (source pixels are square; the cell's pixels are
    /// ``CellSize/aspectWidth``:``CellSize/aspectHeight``). Smaller images are
    /// enlarged unless `enlarge` is false.
    public static func fitting(
        sourceWidth: Int, sourceHeight: Int, columns: Int, rows: Int,
        cell: CellSize = .halfBlock, background: RGBColor? = .black, enlarge: Bool = true
    ) -> Scaler {
        let size = fittedSize(sourceWidth: sourceWidth, sourceHeight: sourceHeight, columns: columns, rows: rows,
                              cell: cell, enlarge: enlarge)
        return Scaler(sourceWidth: max(1, sourceWidth), sourceHeight: max(1, sourceHeight), width: size.width,
                      height: size.height, background: background)
    }

    /// The output size of ``fitting(sourceWidth:sourceHeight:columns:rows:cell:background:enlarge:)``.
    private static func fittedSize(sourceWidth: Int, sourceHeight: Int, columns: Int, rows: Int,
                                   cell: CellSize, enlarge: Bool) -> (width: Int, height: Int) {
        // The source measured in the cell's pixels: a pixel k times as tall as
        // wide takes k times as many columns for the same shape.
        let source = (width: max(1, sourceWidth) * cell.aspectHeight, height: max(1, sourceHeight) * cell.aspectWidth)
        let room = (width: max(1, columns) * cell.width, height: max(1, rows) * cell.height)
        // Not enlarged: a source pixel's width is a cell pixel's.
        var size = (width: max(1, sourceWidth),
                    height: max(1, (max(1, sourceHeight) * cell.aspectWidth + cell.aspectHeight / 2) / cell.aspectHeight))
        if enlarge || size.width > room.width || size.height > room.height {
            if source.width * room.height <= source.height * room.width {
                size = (max(1, (source.width * room.height + source.height / 2) / source.height), room.height)
            } else {
                size = (room.width, max(1, (source.height * room.width + source.width / 2) / source.width))
            }
        }
        return (min(size.width, room.width), min(size.height, room.height))
    }

    /// The cells the output covers with cells of `cell` pixels.
    public func cells(_ cell: CellSize) -> (columns: Int, rows: Int) {
        ((width + cell.width - 1) / cell.width, (height + cell.height - 1) / cell.height)
    }

    /// `frame` resampled; its other fields are kept.
    public func scale(_ frame: Frame) -> Frame {
        var scaled = frame
        scaled.rgba = scale(frame.rgba)
        scaled.width = width
        scaled.height = height
        return scaled
    }

    /// `rgba` (``sourceWidth``×``sourceHeight`` pixels, R G B A bytes)
    /// resampled to ``width``×``height``. Missing source bytes count as
    /// transparent.
    public func scale(_ rgba: [UInt8]) -> [UInt8] {
        rgba.withUnsafeBufferPointer { source in
            var input = RGBARows(source: source, lanes: sourceWidth * 4)
            return scale(&input)
        }
    }

    /// The frame `indices` (``sourceWidth``×``sourceHeight`` color indices,
    /// a byte each) makes through `colors` (256 RGBA words, every alpha 255),
    /// resampled: the same bytes as ``scale(_:)`` of that frame painted,
    /// without painting it. Rows of whole weight are summed straight from the
    /// indices, four lanes in one 64-bit word per column.
    func scale(indices: UnsafePointer<UInt8>, colors: UnsafePointer<UInt32>) -> [UInt8] {
        var input = IndexedRows(indices: indices, width: sourceWidth, colors: colors)
        defer { input.deallocate() }
        return scale(&input)
    }

    private func scale<Input: ScalerInput>(_ input: inout Input) -> [UInt8] {
        // Each output pixel needs Σ w·α·R, Σ w·α·G, Σ w·α·B and Σ w·α over
        // the source pixels it covers, w the product of their row and column
        // overlaps. They are summed down the source rows of an output row,
        // per source column (`ColumnSums`), then across the columns of each
        // output pixel. Integer sums do not depend on their order, so the
        // bytes are those of the plain loop over every pixel and overlap.
        var out = [UInt8](repeating: 0, count: width * height * 4)
        var sums = ColumnSums(sourceWidth: sourceWidth, sourceHeight: sourceHeight, height: height)
        defer { sums.deallocate() }
        let total = sourceWidth * sourceHeight
        let covered = Divisor(background == nil ? 1 : total * 255), coverage = Divisor(total)
        let completeRows = input.completeRows
        out.withUnsafeMutableBufferPointer { target in
            rows.withUnsafeBufferPointer { rows in
                columns.withUnsafeBufferPointer { columns in
                    for y in 0..<height {
                        let span = rows[y]
                        sums.clear()
                        // The rows of whole weight are consecutive: take
                        // them in one pass, or one by one if not all opaque.
                        var together = span.wholeRange.clamped(to: 0..<completeRows)
                        if together.isEmpty || !input.setWhole(&sums, rows: together) {
                            together = 0..<0
                        }
                        for sourceRow in span.first...span.last where !together.contains(sourceRow) {
                            // Only whole pixels count; the rest are missing.
                            guard let (row, pixels) = input.row(sourceRow, width: sourceWidth) else { continue }
                            sums.add(row, pixels: pixels, weight: span.weight(of: sourceRow))
                        }
                        sums.foldWhole()
                        for x in 0..<width {
                            let total = sums.total(over: columns[x])
                            writePixel(total[0], total[1], total[2], total[3], covered: covered, coverage: coverage,
                                       into: target, at: (y * width + x) * 4)
                        }
                    }
                }
            }
        }
        return out
    }

    /// Turns the sums of one output pixel into its bytes: `covered` divides
    /// by `total`·255, `coverage` by `total`.
    @inline(__always)
    private func writePixel(_ red: Int, _ green: Int, _ blue: Int, _ alpha: Int, covered: Divisor, coverage: Divisor,
                            into target: UnsafeMutableBufferPointer<UInt8>, at: Int) {
        if let background {
            // The premultiplied average over the background, rounded.
            var red = red, green = green, blue = blue
            let cover = covered.divisor &- alpha
            if cover != 0 {
                red &+= Int(background.red) &* cover
                green &+= Int(background.green) &* cover
                blue &+= Int(background.blue) &* cover
            }
            target[at] = covered.rounded(red)
            target[at + 1] = covered.rounded(green)
            target[at + 2] = covered.rounded(blue)
            target[at + 3] = 255
        } else if alpha > 0 {
            let divisor = Divisor(alpha)
            target[at] = divisor.rounded(red)
            target[at + 1] = divisor.rounded(green)
            target[at + 2] = divisor.rounded(blue)
            target[at + 3] = coverage.rounded(alpha)
        }
    }
}
