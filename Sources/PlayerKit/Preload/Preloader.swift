import FoundationEssentials
import Glibc
import GIFEngine
import RecordKit
import SposureKit

/// The decoder threads: keep the next GIFs started (decoded and fitted to
/// the screen for their first 0.3 s) in a bounded gif buffer, and
/// decode the rest of each while it plays, ahead of the frame on screen, so
/// the player never waits on giflib and a GIF the round never reaches costs
/// only its start.
///
/// ```
/// [input queue] ─▶ preloader thread (giflib, scaling, hashing) ─▶ [gif buffer, --buffer N] ─▶ feed ─▶ player
///                                           the feed, handing a GIF out ─▶ [decodings] ─▶ finisher thread
///                                                                           ─▶ frames of the GIF playing
/// player, on resize ─▶ refit (frames through the one on screen) ─▶ refit thread ─▶ the rest
/// ```
///
/// The rest of a GIF is decoded in the order the feed hands GIFs out,
/// which is not always input order (it may play a GIF not seen lately
/// first), so the finisher never waits on a GIF the player passed over.
///
/// Records that are not images go through the same buffer, so they reach
/// stdout in input order with the player's events.
public final class Preloader: @unchecked Sendable {
    /// The gif buffer.
    public let buffer: BoundedQueue<BufferItem>
    /// The play decoded before a GIF enters the buffer, and kept decoded ahead
    /// of the frame on screen while it plays, in ms.
    public static let aheadMs = 300
    private let stage: Stage
    private let configuration: PlayerConfiguration
    private let lock = Lock()
    private var currentLayout: ScreenLayout
    /// The GIFs whose decoding is not finished, in play order.
    private let decodings: BoundedQueue<GIFDecoding>
    /// The lock of every frame store the preloader starts: the finisher waits
    /// on it for demand. (A GIF fitted again on resize has a lock of its own.)
    private let frameCondition = Condition()

    /// A preloader reading `stage`'s input, fitting to `layout`.
    public init(stage: Stage, configuration: PlayerConfiguration, layout: ScreenLayout) {
        self.stage = stage
        self.configuration = configuration
        currentLayout = layout
        buffer = BoundedQueue(capacity: max(1, configuration.buffer))
        // GIFs handed out: the one playing, one held back, those passed over, and room.
        decodings = BoundedQueue(capacity: max(1, configuration.buffer) + 3)
    }

    /// The layout new GIFs are fitted to; set on resize.
    public var layout: ScreenLayout {
        get { lock.withLock { currentLayout } }
        set { lock.withLock { currentLayout = newValue } }
    }

    /// Starts the threads.
    public func start() {
        Threads.start("preloader") { [self] in run() }
        Threads.start("finisher") { [self] in finish() }
    }

    /// Stops taking input (SIGINT, SIGTERM, a closed stdout): the gif
    /// buffer closes, so a round waiting on it (a virtual clock waits for
    /// the next GIF) sees the end at once, and a decoder stuck or slow
    /// holds nothing up.
    public func stop() {
        buffer.close()
        decodings.close()
    }

    /// Lines held to go with the next GIF, at most this many: beyond, they
    /// take a place in the buffer of their own.
    static let heldLines = 64

    private func run() {
        // Lines ride with the GIF after them, so records that are not images
        // (a run of upstream errors) never take the places of GIFs.
        var lines: [[UInt8]] = []
        while case let batch = stage.input.popBatch(max: 1), !batch.isEmpty {
            for item in batch {
                switch prepare(item) {
                case .line(let line):
                    lines.append(line)
                    if lines.count >= Self.heldLines {
                        guard buffer.push(.lines(lines)) else { return }
                        lines = []
                    }
                case .gif(let gif, let at, let rest):
                    guard buffer.push(.gif(gif, availableAt: at, linesBefore: lines, rest: rest)) else { return }
                    lines = []
                }
            }
        }
        if !lines.isEmpty { _ = buffer.push(.lines(lines)) }
        // The decodings stay open: the feed hands out the GIFs left in the
        // buffer after the input ends, and their rest is decoded then.
        buffer.close()
    }

    /// The feed hands out the GIF whose later frames `rest` decodes: the
    /// finisher takes it in turn.
    public func startFinishing(_ rest: GIFDecoding?) {
        if let rest { _ = decodings.push(rest) }
    }

    /// Decodes the rest of each GIF, one at a time in the order they are
    /// handed out, a frame whenever the player's look-ahead asks for one.
    private func finish() {
        while case let batch = decodings.popBatch(max: 1), let decoding = batch.first {
            decoding.finishOnDemand()
        }
    }

    /// `gif` fitted again to the current ``layout`` after a resize: decoded
    /// now through frame `index` (the one on screen) and 0.3 s of play from
    /// it, the rest on a thread of its own as it plays, as the finisher does
    /// for new GIFs (the finisher works through its GIFs in play order, and a
    /// GIF fitted again is already in play). The old fit is dropped. Nil, and
    /// the old fit kept, with a warning, when the file no longer decodes.
    ///
    /// Decoding the whole GIF on the player's thread, as a resize did before,
    /// stopped play and input for as long as that took, on every step of a
    /// window being dragged to a new size.
    public func refit(_ gif: PreparedGIF, through index: Int = 0) -> PreparedGIF? {
        // The old fit's decoding may not have reached a cut yet: then this
        // one tells of it (the warning is told once per record).
        guard let path = gif.record.string(ImageRecord.Field.path) else { return nil }
        let refitted: PreparedGIF, rest: GIFDecoding?
        do {
            (refitted, rest) = try PreparedGIF.begin(
                record: gif.record, path: path, layout: layout, options: configuration.decode,
                firstMs: Self.aheadMs, through: index, approach: configuration.approach.zoom(for: gif.record, displayMs: configuration.stillMs),
                onTruncation: gif.onTruncation)
        } catch {
            stage.diagnostics.warning("\(path): \(error.message) (fitting it to the new size; it plays on as it was)")
            return nil
        }
        gif.frames.cancel()
        if let rest {
            // It ends when the frames do, or when this fit is dropped too (cancel).
            Threads.start("refit") { rest.finishOnDemand() }
        }
        return refitted
    }

    /// Turns one input item into what the player needs.
    public func prepare(_ item: InputItem) -> PreparedItem {
        switch item {
        case .bad(let bad):
            return .line(stage.badLineRecord(bad))
        case .passThrough(_, let raw):
            return .line(raw)
        case .record(let input):
            guard input.record.kind == ImageRecord.kind else { return .line(input.raw) }
            guard let path = input.record.string(ImageRecord.Field.path), !path.isEmpty else {
                let error = stage.makeError(input.record, code: "bad_record", message: "an image record needs a string path")
                return .line(error.serialized())
            }
            do {
                let diagnostics = stage.diagnostics, line = input.line
                // Once per record: a fit made again on resize finds the same
                // cut, maybe while the old fit's decoding is finding it too.
                let once = Once()
                let (gif, rest) = try PreparedGIF.begin(
                    record: input.record, path: path, layout: layout, options: configuration.decode,
                    firstMs: Self.aheadMs, condition: frameCondition,
                    approach: configuration.approach.zoom(for: input.record, displayMs: configuration.stillMs)
                ) { truncation, frames in
                    guard once.first() else { return }
                    diagnostics.warning("stdin:\(line): \(path): \(truncation.message) (playing the \(frames) frames before it)")
                }
                return .gif(gif, availableAt: input.record.int(ImageRecord.Field.atMs) ?? 0, rest: rest)
            } catch {
                stage.diagnostics.warning("stdin:\(input.line): \(error.code): \(path): \(error.message)")
                let record = stage.makeError(input.record, code: error.code == "decode_failed" ? "decode_failed" : error.code, message: error.message)
                return .line(record.serialized())
            }
        }
    }
}
