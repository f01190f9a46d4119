import Foundation
import GIFEngine
import SposureKit

/// How pictures are laid out on the screen now: the room for the picture and
/// how many pixels a cell holds.
public struct ScreenLayout: Sendable, Equatable {
    /// Columns and rows for the picture (the status line not included).
    public var columns: Int
    public var rows: Int
    /// Pixels a cell: 1×2 for half blocks, the real cell size for graphics.
    public var cell: CellSize
    /// What transparent areas are laid over.
    public var background: RGBColor

    /// A layout of `columns` × `rows` cells of `cell` pixels.
    public init(columns: Int, rows: Int, cell: CellSize, background: RGBColor) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.cell = cell
        self.background = background
    }
}

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
                             firstMs: Int, through: Int = 0, condition: NSCondition = NSCondition(),
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
        while played < firstMs || decoded <= through, let delay = try decoding.decodeNext() {
            if decoded >= through { played += delay }
            decoded += 1
        }
        store.lookAhead(frames: decoded - through + 1)  // the frames of `firstMs`, and one
        let (columns, rows) = (scaler.width / layout.cell.width, (height + layout.cell.height - 1) / layout.cell.height)
        let origin = (row: 1 + max(0, (layout.rows - rows) / 2), col: 1 + max(0, (layout.columns - columns) / 2))
        let gif = PreparedGIF(record: record, frames: store, layout: layout, origin: origin, onTruncation: onTruncation)
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

/// The decoding of one GIF's frames, moved from the thread that starts it to
/// the one that finishes it (it is used by one thread at a time).
public final class GIFDecoding: @unchecked Sendable {
    /// Where the frames go.
    public let store: FrameStore
    private let decoder: GIFDecoder
    private let scaler: Scaler
    private let height: Int
    private let background: RGBColor
    private let onTruncation: (@Sendable (GIFError, Int) -> Void)?

    init(decoder: GIFDecoder, scaler: Scaler, height: Int, background: RGBColor, store: FrameStore,
         onTruncation: (@Sendable (GIFError, Int) -> Void)?) {
        self.decoder = decoder
        self.scaler = scaler
        self.height = height
        self.background = background
        self.store = store
        self.onTruncation = onTruncation
    }

    /// Decodes a frame whenever the player's look-ahead asks for one, until
    /// the frames end or the GIF is dropped (``FrameStore/cancel()``): the
    /// work of the thread that finishes a GIF as it plays.
    public func finishOnDemand() {
        while store.waitForDemand(), step() {}
    }

    /// One more frame into the store; false when there are no more (the store
    /// has ended, with the fault that ended it, if any).
    @discardableResult
    public func step() -> Bool {
        do {
            return try decodeNext() != nil
        } catch {
            // Only the first frame's fault is thrown, and the first frame is decoded by then.
            onTruncation?(error, store.decoded)
            store.end(truncation: error)
            return false
        }
    }

    /// One more frame into the store, its delay; nil at the end. Throws the
    /// fault that breaks the file when no frame came before it.
    fileprivate func decodeNext() throws(GIFError) -> Int? {
        let frame: Frame?
        do {
            frame = try decoder.nextFrame(scaledBy: scaler)
        } catch {
            if store.decoded == 0 { throw error }
            onTruncation?(error, store.decoded)
            store.end(truncation: error)
            return nil
        }
        guard let frame else {
            if store.decoded == 0 { throw GIFError(.corrupt, "the file has no frame") }
            store.end(truncation: nil)
            return nil
        }
        let picture = PreparedGIF.picture(frame.rgba, width: scaler.width, height: scaler.height,
                                          paddedHeight: height, background: background)
        store.append(picture, delay: frame.delayMs)
        return frame.delayMs
    }
}

/// The frames of one GIF as they are decoded: the decoder thread appends,
/// the player reads. The player asking for frame `n` asks for the frames up
/// to `n` + the look-ahead to be decoded, and waits only when frame `n` is
/// not there yet.
///
/// The lock is a condition shared by all the stores the preloader starts, so
/// the finisher can wait for demand from any of them; a store fitted again on
/// resize, which a thread of its own decodes, has one of its own.
public final class FrameStore: @unchecked Sendable {
    private let condition: NSCondition
    private var pictures: [CellPicture] = []
    private var delays: [Int] = []
    private var ended = false
    private var cancelled = false
    private var wanted = 0
    private var ahead = 1
    private var fault: GIFError?

    init(condition: NSCondition) { self.condition = condition }

    /// Frames decoded so far.
    public var decoded: Int { condition.withLock { pictures.count } }
    /// Whether every frame there will be is decoded.
    public var isEnded: Bool { condition.withLock { ended } }
    /// The fault that ended the frames early, if one did.
    public var truncation: GIFError? { condition.withLock { fault } }

    /// Whether frame `index` exists: waits until it is decoded or the frames end.
    ///
    /// Frames are asked for in bursts: when fewer than a third of the
    /// look-ahead are decoded past `index`, the decoder is asked for the whole
    /// look-ahead again. Decoding ten frames at once, with giflib's tables and
    /// the caches warm, costs less than one at a time between frames.
    public func has(_ index: Int) -> Bool {
        condition.withLock {
            askFor(index)
            while pictures.count <= index && !ended && !cancelled { condition.wait() }
            return index < pictures.count
        }
    }

    /// Asks the decoder for the look-ahead past `index` when fewer than a
    /// third of it are decoded (under the lock).
    private func askFor(_ index: Int) {
        if pictures.count < index + 1 + max(1, ahead / 3) && index + ahead > wanted {
            wanted = index + ahead
            condition.broadcast()
        }
    }

    /// Whether frame `index` is decoded (true), never will be (false: the
    /// frames ended before it), or may still come (nil). Asks for it as
    /// ``has(_:)`` does, without waiting.
    public func decodedYet(_ index: Int) -> Bool? {
        condition.withLock {
            askFor(index)
            if index < pictures.count { return true }
            return ended || cancelled ? false : nil
        }
    }

    /// Frame `index` (which exists).
    public func picture(_ index: Int) -> CellPicture {
        condition.withLock { pictures[index] }
    }

    /// The delay of frame `index` (which exists), in ms.
    public func delay(_ index: Int) -> Int {
        condition.withLock { delays[index] }
    }

    /// No more frames are wanted: the GIF will not be shown (again).
    public func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    // MARK: The decoder's side

    /// At least 4 frames: a GIF whose first 0.3 s is one frame (a slide show,
    /// a long title frame) still gets several frames decoded at a time.
    func lookAhead(frames: Int) {
        condition.withLock { ahead = max(4, frames) }
    }

    func append(_ picture: CellPicture, delay: Int) {
        condition.withLock {
            pictures.append(picture)
            delays.append(delay)
            condition.broadcast()
        }
    }

    func end(truncation: GIFError?) {
        condition.withLock {
            ended = true
            fault = truncation
            condition.broadcast()
        }
    }

    /// Waits until a frame not decoded yet is wanted (true), or none ever will
    /// be (false: the frames ended or the GIF was dropped).
    public func waitForDemand() -> Bool {
        condition.withLock {
            while pictures.count >= wanted && !ended && !cancelled { condition.wait() }
            return !ended && !cancelled
        }
    }
}
