/// Draws pictures in sixel, with one palette a GIF and only what changed.
///
/// The palette is a median cut of the GIF's first frame as fitted (at most
/// the terminal's colour registers, 256), kept for its frames, so a sky or a
/// face does not band as on a fixed cube and the colours do not flicker
/// from frame to frame. Only a scene change (a frame that the palette fits
/// far worse than it fit the first: ``rebuildFactor``) makes a new one, from
/// that frame. Each frame is compared, pixel by pixel, with the colours the
/// screen shows: only the cell rows from the first change to the last are
/// sent, as an image whose unchanged pixels are left out (background select
/// 1: they keep what is there), with the definitions of the colours it uses.
/// The screen after any number of frames is therefore exactly a fresh
/// drawing of the last with the same palette.
public struct SixelRenderer: Sendable {
    /// What the terminal allows.
    public let options: GraphicsOptions
    /// The cell size pictures are fitted with (rows of the picture start on cell rows).
    var cellHeight = 16
    private var palette: SixelPalette?
    private var paletteGIF: UInt64?
    /// How far (mean squared error a channel) the palette was from the frame it was made from.
    private var paletteError = 0.0
    /// A frame the palette fits this many times worse than its own (and past
    /// ``rebuildFloor``) is a new scene: a palette is made from it.
    static let rebuildFactor = 3.0, rebuildFloor = 50.0
    /// Empty columns kept inside one stretch of a colour rather than ending it.
    static let gapKept = 40
    /// The colour (0xRRGGBB) shown at each pixel (-1: not known).
    private var shown: [Int32] = []
    private var shownSize = (width: 0, height: 0, row: 0, col: 0)

    /// A renderer for a terminal with `options`.
    public init(options: GraphicsOptions = GraphicsOptions()) { self.options = options }

    /// Forgets what is on screen: the next picture is drawn whole.
    public mutating func invalidate() { shown = [] }

    /// Appends the bytes that draw `picture` with its top-left cell at (`row`, `col`).
    public mutating func render(_ picture: CellPicture, row: Int, col: Int, into target: inout [UInt8]) {
        let width = picture.width, height = picture.height
        guard width > 0, height > 0 else { return }
        if palette == nil || picture.tag == nil || picture.tag?.gif != paletteGIF {
            palette = SixelPalette(rgb: picture.rgb, count: options.sixelColors)
            paletteGIF = picture.tag?.gif
            paletteError = -1
        }
        guard var palette else { return }
        if shown.count != width * height || shownSize != (width, height, row, col) {
            shown = [Int32](repeating: -1, count: width * height)
            shownSize = (width, height, row, col)
        }
        var (indices, error) = Self.map(picture.rgb, with: &palette)
        if paletteError < 0 {
            paletteError = error
        } else if error > max(Self.rebuildFloor, paletteError * Self.rebuildFactor) {
            palette = SixelPalette(rgb: picture.rgb, count: options.sixelColors)
            (indices, error) = Self.map(picture.rgb, with: &palette)
            paletteError = error
        }
        self.palette = palette
        let colors = palette.colors.map { Int32($0) }
        // One pass: which pixels change (the screen takes their new colour),
        // and the first and last rows that do.
        var changed = [Bool](repeating: false, count: width * height)
        var firstRow = height, lastRow = -1
        indices.withUnsafeBufferPointer { indices in
            colors.withUnsafeBufferPointer { colors in
                shown.withUnsafeMutableBufferPointer { shown in
                    changed.withUnsafeMutableBufferPointer { changed in
                        for y in 0..<height {
                            var rowChanged = false
                            for pixel in (y * width)..<(y * width + width) {
                                let color = colors[Int(indices[pixel])]
                                if shown[pixel] != color {
                                    shown[pixel] = color
                                    changed[pixel] = true
                                    rowChanged = true
                                }
                            }
                            if rowChanged {
                                firstRow = min(firstRow, y)
                                lastRow = y
                            }
                        }
                    }
                }
            }
        }
        guard lastRow >= 0 else { return }
        // The image starts on the cell row holding the first change.
        let cellRow = firstRow / max(1, cellHeight)
        let top = cellRow * max(1, cellHeight)
        var out = ByteWriter(capacity: width * (lastRow - top + 1) / 2 + 4096)
        out.moveTo(row: row + cellRow, col: col)
        indices.withUnsafeBufferPointer { indices in
            changed.withUnsafeBufferPointer { changed in
                Self.encode(indices, changed, width: width, rows: top...lastRow, colors: colors, into: &out)
            }
        }
        out.write(to: &target)
    }

    /// Each pixel's nearest palette colour, and the mean squared error a channel.
    private static func map(_ rgb: [UInt8], with palette: inout SixelPalette) -> ([UInt8], Double) {
        let pixels = rgb.count / 3
        var indices = [UInt8](repeating: 0, count: pixels)
        var sum = 0
        rgb.withUnsafeBufferPointer { rgb in
            for pixel in 0..<pixels {
                let r = rgb[pixel * 3], g = rgb[pixel * 3 + 1], b = rgb[pixel * 3 + 2]
                let index = palette.index(r, g, b)
                indices[pixel] = index
                let color = palette.colors[Int(index)]
                let dr = Int(r) - color >> 16, dg = Int(g) - (color >> 8 & 0xFF), db = Int(b) - (color & 0xFF)
                sum += dr * dr + dg * dg + db * db
            }
        }
        return (indices, Double(sum) / Double(max(1, pixels * 3)))
    }

    /// One sixel image of `rows` of the picture: the `changed` pixels only.
    private static func encode(_ indices: UnsafeBufferPointer<UInt8>, _ changed: UnsafeBufferPointer<Bool>, width: Int,
                               rows: ClosedRange<Int>, colors: [Int32], into out: inout ByteWriter) {
        let height = rows.count
        // P2 = 1: pixels not drawn keep their colour.
        out.append("\u{1B}P0;1;0q\"1;1;")
        out.append(number: width)
        out.append(";")
        out.append(number: height)
        // The colours this image uses, defined once.
        var used = [Bool](repeating: false, count: colors.count)
        for pixel in (rows.lowerBound * width)..<((rows.upperBound + 1) * width) where changed[pixel] {
            used[Int(indices[pixel])] = true
        }
        for (index, color) in colors.enumerated() where used[index] {
            out.append("#")
            out.append(number: index)
            out.append(";2;")
            out.append(number: (Int(color >> 16) * 100 + 127) / 255)
            out.append(";")
            out.append(number: (Int(color >> 8 & 0xFF) * 100 + 127) / 255)
            out.append(";")
            out.append(number: (Int(color & 0xFF) * 100 + 127) / 255)
        }
        // Each colour's sixels across the band, and its stretches (gaps of a
        // few empty columns kept inside: skipping them costs as much), both
        // found in one sweep of the band's columns.
        let count = colors.count
        let grid = UnsafeMutablePointer<UInt8>.allocate(capacity: count * width)
        grid.initialize(repeating: 0, count: count * width)
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: count)
        starts.initialize(repeating: 0, count: count)
        let lasts = UnsafeMutablePointer<Int>.allocate(capacity: count)
        lasts.initialize(repeating: -1, count: count)
        defer {
            grid.deallocate()
            starts.deallocate()
            lasts.deallocate()
        }
        var touched: [Int] = []
        var segments: [(start: Int, end: Int, color: Int)] = []
        var next: [(start: Int, end: Int, color: Int)] = []
        var band = rows.lowerBound
        while band <= rows.upperBound {
            let bandEnd = min(band + 6, rows.upperBound + 1)
            segments.removeAll(keepingCapacity: true)
            for x in 0..<width {
                var pixel = band * width + x
                for y in band..<bandEnd {
                    defer { pixel += width }
                    guard changed[pixel] else { continue }
                    let color = Int(indices[pixel])
                    grid[color * width + x] |= UInt8(1) << UInt8(y - band)
                    let last = lasts[color]
                    guard last != x else { continue }
                    if last < 0 {
                        touched.append(color)
                        starts[color] = x
                    } else if x - last > Self.gapKept {
                        segments.append((starts[color], last, color))
                        starts[color] = x
                    }
                    lasts[color] = x
                }
            }
            for color in touched {
                segments.append((starts[color], lasts[color], color))
                lasts[color] = -1
            }
            touched.removeAll(keepingCapacity: true)
            // Packed left to right into as few passes as fit: a pass goes on
            // with the next stretch that starts after the last one ended,
            // whatever its colour, and `$` starts the next pass. (img2sixel
            // does the same.)
            segments.sort { ($0.start, $0.color) < ($1.start, $1.color) }
            var firstPass = true
            while !segments.isEmpty {
                if !firstPass { out.append("$") }
                firstPass = false
                var cursor = 0, current = -1
                next.removeAll(keepingCapacity: true)
                for segment in segments {
                    guard segment.start >= cursor else {
                        next.append(segment)
                        continue
                    }
                    if segment.color != current {
                        out.append("#")
                        out.append(number: segment.color)
                        current = segment.color
                    }
                    emitRun(&out, segment.start - cursor, 63)
                    let row = grid + segment.color * width
                    var x = segment.start
                    while x <= segment.end {
                        // A run of one sixel: as far as it repeats.
                        let char = row[x]
                        var end = x + 1
                        while end <= segment.end && row[end] == char { end += 1 }
                        emitRun(&out, end - x, 63 + char)
                        x = end
                    }
                    (row + segment.start).update(repeating: 0, count: segment.end - segment.start + 1)
                    cursor = segment.end + 1
                }
                swap(&segments, &next)
            }
            out.append("-")
            band = bandEnd
        }
        out.append("\u{1B}\\")
    }

    private static func emitRun(_ out: inout ByteWriter, _ run: Int, _ char: UInt8) {
        guard run > 0 else { return }
        if run > 3 {
            out.append("!")
            out.append(number: run)
            out.append(byte: char)
        } else {
            for _ in 0..<run { out.append(byte: char) }
        }
    }
}
