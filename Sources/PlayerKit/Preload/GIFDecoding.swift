import GIFEngine

/// The decoding of one GIF's frames, moved from the thread that starts it to
/// the one that finishes it (it is used by one thread at a time).
public final class GIFDecoding: @unchecked Sendable {
    /// Where the frames go.
    public let store: FrameStore
    private let decoder: PictureDecoder
    private let scaler: Scaler
    private let width: Int, height: Int
    private let span: CellSpan?
    private let background: RGBColor
    private let onTruncation: (@Sendable (GIFError, Int) -> Void)?
    /// The clip's perceptual hashes, made from the canvas of its first frames as they are decoded.
    private(set) var hashing: ClipHash.Maker
    /// A still that comes closer: its zoom, its first frame as decoded
    /// (dropped after the last step) and the step made next (nil: frames as decoded).
    private var approach: (zoom: ApproachZoom, base: [UInt8]?, step: Int)?

    init(decoder: PictureDecoder, scaler: Scaler, width: Int, height: Int, span: CellSpan?, background: RGBColor, store: FrameStore,
         onTruncation: (@Sendable (GIFError, Int) -> Void)?, approach: ApproachZoom? = nil) {
        self.approach = approach.map { ($0, nil, 1) }
        self.decoder = decoder
        self.scaler = scaler
        self.width = width
        self.height = height
        self.span = span
        self.background = background
        self.store = store
        self.onTruncation = onTruncation
        hashing = ClipHash.Maker(width: decoder.info.width, height: decoder.info.height)
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
    func decodeNext() throws(GIFError) -> Int? {
        if approach != nil, store.decoded > 0 { return nextApproachStep() }
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
            hashing.ended(lastFrame: decoder.frameHash)
            store.end(truncation: nil)
            return nil
        }
        if hashing.wantsNext { hashing.frame(delayMs: frame.delayMs, hash: decoder.frameHash) }
        var delay = frame.delayMs
        if let zoom = approach?.zoom {
            // The still is this frame: hashed alone, kept for the steps that come closer.
            hashing.ended(lastFrame: decoder.frameHash)
            approach?.base = frame.rgba
            delay = zoom.delay(step: 0)
        }
        let picture = PreparedGIF.picture(frame.rgba, width: scaler.width, height: scaler.height,
                                          paddedWidth: width, paddedHeight: height, background: background, span: span)
        store.append(picture, delay: delay)
        return delay
    }

    /// The next step of a still coming closer, made now from its one picture
    /// (so memory holds the steps shown and the look-ahead, as for a GIF); nil after the last.
    private func nextApproachStep() -> Int? {
        guard var state = approach, let base = state.base, state.step < state.zoom.steps else {
            approach?.base = nil
            store.end(truncation: nil)
            return nil
        }
        let rgba = state.zoom.frame(base, width: scaler.width, height: scaler.height, step: state.step)
        let delay = state.zoom.delay(step: state.step)
        state.step += 1
        if state.step == state.zoom.steps { state.base = nil }
        approach = state
        store.append(PreparedGIF.picture(rgba, width: scaler.width, height: scaler.height, paddedWidth: width, paddedHeight: height,
                                         background: background, span: span), delay: delay)
        return delay
    }
}
