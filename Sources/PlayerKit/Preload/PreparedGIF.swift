import FoundationEssentials
import Glibc
import GIFEngine
import RecordKit
import SposureKit

/// One GIF fitted to a layout, ready to play the moment the one before it
/// ends (the "next round" of the original app).
///
/// Its frames come from a ``FrameStore``: the decoder thread decodes the first
/// ones (0.3 s of play) before the GIF enters the gif buffer, and the
/// rest while it plays, a little ahead of the frame on screen, so a GIF that
/// is never shown (the round ends first) costs only its start.
public struct PreparedGIF: Sendable {
    /// The image record it came from.
    public var record: JSONRecord
    /// The frames, fitted to ``layout``, as they are decoded.
    public let frames: FrameStore
    /// The layout it was fitted to.
    public var layout: ScreenLayout
    /// Where the picture goes, in cells (1-based), to centre it.
    public var origin: (row: Int, col: Int)
    /// Told when a fault ends the frames early, as given to ``begin``; a fit
    /// made again after a resize is given it too.
    public var onTruncation: (@Sendable (GIFError, Int) -> Void)?
    /// What the clip looks like (its first frame and the one at
    /// ``ClipHash/laterMs``, from the canvas as decoded): nil for a GIF too
    /// small to hash, or one whose frames broke off before.
    public var clipHash: ClipHash?

    /// The frames the file says it holds (``GIFInfo/frameCount``): one makes a still.
    public var frameCount = 0

    /// The id shown in events.
    public var id: String { record.string(ImageRecord.Field.id) ?? "" }
    /// The GIF as fitted, for ``FrameTag``: its source (cache key, id or
    /// path) and picture size, hashed (FNV-1a).
    public var identity: UInt64 = 0
    /// Whether it is a still coming closer (``ApproachZoom``): its steps play as frames, even on a `still` rung.
    public var approaching = false

    /// Whether frame `index` exists; waits for the decoder when it has not got there yet.
    public func hasFrame(_ index: Int) -> Bool { frames.has(index) }
    /// Whether frame `index` is decoded, without waiting: nil while it may
    /// still come (see ``FrameStore/decodedYet(_:)``).
    public func frameReady(_ index: Int) -> Bool? { frames.decodedYet(index) }
    /// Frame `index`, fitted (it must exist: see ``hasFrame(_:)``).
    public func picture(_ index: Int) -> CellPicture { frames.picture(index) }
    /// How long frame `index` shows, in ms (it must exist).
    public func delay(_ index: Int) -> Int { frames.delay(index) }

    /// Decodes the frames through `through` and those of the `firstMs` of
    /// play from it (at least one) and returns the GIF with the decoding of
    /// the rest, nil when there is none left. Throws when not even one frame
    /// decodes; a fault after that ends the frames (``FrameStore/truncation``),
    /// and is told to `onTruncation` with the number of frames before it,
    /// before the player can see the end.
    public static func begin(record: JSONRecord, path: String, layout: ScreenLayout, options: DecodeOptions = DecodeOptions(),
                             firstMs: Int, through: Int = 0, condition: Condition = Condition(), approach: ApproachZoom? = nil,
                             onTruncation: (@Sendable (GIFError, Int) -> Void)? = nil) throws(GIFError) -> (PreparedGIF, GIFDecoding?) {
        let decoder = try PictureDecoder(contentsOfFile: path, options: options)
        // A still: a picture of one frame, or the first frame a `still` rung shows.
        let zoom = decoder.info.frameCount == 1 || record.bool(LadderTag.Field.still) == true ? approach : nil
        let fit = { (sourceWidth: Int, sourceHeight: Int) -> (shown: Scaler, scaler: Scaler) in
            // The cells the picture covers, as fitted to the screen's pixels.
            let shown = Scaler.fitting(sourceWidth: sourceWidth, sourceHeight: sourceHeight, columns: layout.columns, rows: layout.rows,
                                       cell: layout.cell, background: layout.background, enlarge: layout.enlarge)
            // When the terminal scales, the GIF's own pixels (smaller when it does not fit), never more.
            let scaler = layout.terminalScales
                ? Scaler.fitting(sourceWidth: sourceWidth, sourceHeight: sourceHeight, columns: layout.columns, rows: layout.rows,
                                 cell: layout.cell, background: layout.background, enlarge: false)
                : shown
            return (shown, scaler)
        }
        var (shown, scaler) = fit(decoder.info.width, decoder.info.height)
        // A JPEG is decoded no bigger than it is drawn (½, ¼ or ⅛ of its size), then fitted again from that size.
        decoder.decodeAtLeast(width: scaler.width, height: scaler.height)
        if scaler.sourceWidth != decoder.info.width || scaler.sourceHeight != decoder.info.height {
            (shown, scaler) = fit(decoder.info.width, decoder.info.height)
        }
        let (columns, rows) = shown.cells(layout.cell)
        let span = layout.terminalScales ? CellSpan(columns: columns, rows: rows) : nil
        // Whole cells, unless the terminal scales: the last row and column pad with the background.
        let (width, height) = layout.terminalScales ? (scaler.width, scaler.height)
            : (columns * layout.cell.width, rows * layout.cell.height)
        let store = FrameStore(condition: condition)
        let decoding = GIFDecoding(decoder: decoder, scaler: scaler, width: width, height: height, span: span,
                                   background: layout.background,
                                   store: store, onTruncation: onTruncation, approach: zoom)
        var decoded = 0, played = 0
        // The frames hashed are among the first 0.3 s: asking for them decodes nothing more.
        while played < firstMs || decoded <= through || decoding.hashing.wantsNext, let delay = try decoding.decodeNext() {
            if decoded >= through { played += delay }
            decoded += 1
        }
        store.lookAhead(frames: decoded - through + 1)  // the frames of `firstMs`, and one
        let origin = (row: 1 + max(0, (layout.rows - rows) / 2), col: 1 + max(0, (layout.columns - columns) / 2))
        var gif = PreparedGIF(record: record, frames: store, layout: layout, origin: origin, onTruncation: onTruncation,
                              clipHash: decoding.hashing.hash)
        let source = record.string(ImageRecord.Field.cacheKey) ?? record.string(ImageRecord.Field.id).map { "id:" + $0 } ?? "path:" + path
        gif.identity = fnv1a("\(source)|\(width)x\(height)")
        gif.frameCount = decoder.info.frameCount
        gif.approaching = zoom != nil
        return (gif, store.isEnded ? nil : decoding)
    }

    /// RGBA (opaque after scaling over the background) to RGB, padded with
    /// the background to `paddedWidth` × `paddedHeight` pixels.
    static func picture(_ rgba: [UInt8], width: Int, height: Int, paddedWidth: Int, paddedHeight: Int,
                        background: RGBColor, span: CellSpan? = nil) -> CellPicture {
        let paddedWidth = max(width, paddedWidth), paddedHeight = max(height, paddedHeight)
        var rgb = [UInt8](repeating: 0, count: paddedWidth * paddedHeight * 3)
        rgba.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for y in 0..<paddedHeight {
                    for x in 0..<paddedWidth {
                        let at = (y * paddedWidth + x) * 3
                        if x < width && y < height {
                            let from = (y * width + x) * 4
                            target[at] = source[from]
                            target[at + 1] = source[from + 1]
                            target[at + 2] = source[from + 2]
                        } else {
                            target[at] = background.red
                            target[at + 1] = background.green
                            target[at + 2] = background.blue
                        }
                    }
                }
            }
        }
        return CellPicture(width: paddedWidth, height: paddedHeight, rgb: rgb, span: span)
    }

    /// FNV-1a, 64 bits, of `text`'s UTF-8.
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return hash
    }
}
