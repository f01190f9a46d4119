import FoundationEssentials
import Glibc
import GIFEngine
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

    /// The id shown in events.
    public var id: String { record.string("id") ?? "" }

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
                             firstMs: Int, through: Int = 0, condition: Condition = Condition(),
                             onTruncation: (@Sendable (GIFError, Int) -> Void)? = nil) throws(GIFError) -> (PreparedGIF, GIFDecoding?) {
        let decoder = try GIFDecoder(contentsOfFile: path, options: options)
        let scaler = Scaler.fitting(sourceWidth: decoder.info.width, sourceHeight: decoder.info.height,
                                    columns: layout.columns, rows: layout.rows, cell: layout.cell,
                                    background: layout.background)
        // Half blocks need an even pixel height: the last row pads with the background.
        let height = layout.cell == .halfBlock ? (scaler.height + 1) / 2 * 2 : scaler.height
        let store = FrameStore(condition: condition)
        let decoding = GIFDecoding(decoder: decoder, scaler: scaler, height: height, background: layout.background, store: store,
                                   onTruncation: onTruncation)
        var decoded = 0, played = 0
        // The frames hashed are among the first 0.3 s: asking for them decodes nothing more.
        while played < firstMs || decoded <= through || decoding.hashing.wantsNext, let delay = try decoding.decodeNext() {
            if decoded >= through { played += delay }
            decoded += 1
        }
        store.lookAhead(frames: decoded - through + 1)  // the frames of `firstMs`, and one
        let (columns, rows) = (scaler.width / layout.cell.width, (height + layout.cell.height - 1) / layout.cell.height)
        let origin = (row: 1 + max(0, (layout.rows - rows) / 2), col: 1 + max(0, (layout.columns - columns) / 2))
        let gif = PreparedGIF(record: record, frames: store, layout: layout, origin: origin, onTruncation: onTruncation,
                              clipHash: decoding.hashing.hash)
        return (gif, store.isEnded ? nil : decoding)
    }

    /// RGBA (opaque after scaling over the background) to RGB, padded to `paddedHeight` rows.
    static func picture(_ rgba: [UInt8], width: Int, height: Int, paddedHeight: Int, background: RGBColor) -> CellPicture {
        var rgb = [UInt8](repeating: 0, count: width * paddedHeight * 3)
        rgba.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<(width * height) {
                    target[pixel * 3] = source[pixel * 4]
                    target[pixel * 3 + 1] = source[pixel * 4 + 1]
                    target[pixel * 3 + 2] = source[pixel * 4 + 2]
                }
                for pixel in (width * height)..<(width * paddedHeight) {
                    target[pixel * 3] = background.red
                    target[pixel * 3 + 1] = background.green
                    target[pixel * 3 + 2] = background.blue
                }
            }
        }
        return CellPicture(width: width, height: paddedHeight, rgb: rgb)
    }
}
