import SposureKit

/// The round's feed from the gif buffer: on a virtual clock it waits for the
/// next item (the same input gives the same events however far the reading
/// ahead got); on a real one it takes what is there. A GIF fitted before a
/// resize is fitted again to the new layout as it is taken.
public final class PreloaderFeed: RoundFeed {
    private let preloader: Preloader
    private let virtualClock: Bool

    /// A feed from `preloader`'s gif buffer.
    public init(preloader: Preloader, virtualClock: Bool) {
        self.preloader = preloader
        self.virtualClock = virtualClock
    }

    /// What ``peekFirst(until:)`` took from the gif buffer ahead of the
    /// round: the lines before the first GIF, and the GIF, handed out in
    /// their place all the same.
    private var peekedLines: [[UInt8]] = []
    private var peeked: (PreparedGIF, Int)?

    /// The record of the first GIF, taken ahead of the round (its lines kept
    /// for their place): is it a ladder round? Waits until `deadline` (nil:
    /// until it comes or the input ends; now: not at all). Nil when none
    /// came by then (see ``isFinished``: the input may have ended).
    public func peekFirst(until deadline: Double?) -> JSONRecord? {
        if let peeked { return peeked.0.record }
        let buffer = preloader.buffer
        while true {
            let items: [BufferItem]
            if let deadline { items = deadline <= monotonicSeconds() ? buffer.tryPopBatch(max: 1) : buffer.popBatch(max: 1, until: deadline) }
            else { items = buffer.popBatch(max: 1) }
            guard let item = items.first else { return nil }
            switch item {
            case .lines(let before):
                peekedLines += before
            case .gif(let gif, let at, let before):
                peekedLines += before
                peeked = (gif, at)
                return gif.record
            }
        }
    }

    /// The next GIF; on a real clock it is available at once (an `at_ms`
    /// only means something on a virtual clock).
    public func nextGIF(lines: ([[UInt8]]) -> Void) -> (gif: PreparedGIF, availableAt: Int)? {
        guard let (gif, at) = takePeeked(lines: lines) ?? popGIF(until: nil, lines: lines) else { return nil }
        if gif.layout != preloader.layout, let refitted = preloader.refit(gif) {
            return (refitted, virtualClock ? at : 0)
        }
        return (gif, virtualClock ? at : 0)
    }

    /// Whether the gif buffer is closed and empty.
    public var isFinished: Bool { peeked == nil && preloader.buffer.isFinished }

    /// The lines and GIF taken ahead, handed out once.
    private func takePeeked(lines: ([[UInt8]]) -> Void) -> (PreparedGIF, Int)? {
        if !peekedLines.isEmpty {
            lines(peekedLines)
            peekedLines = []
        }
        defer { peeked = nil }
        return peeked
    }

    /// On a virtual clock this waits for the next item, up to 5 s for an
    /// input that stays open; on a real one it takes what is there.
    public func linesBeforeNextGIF(lines: ([[UInt8]]) -> Void) {
        (takePeeked(lines: lines) ?? popGIF(until: monotonicSeconds() + 5, lines: lines))?.0.frames.cancel()
    }

    /// The next GIF of the gif buffer, after handing over the lines before
    /// it: on a virtual clock waiting for it (until `deadline`, when given),
    /// on a real one taking what is there. Nil when none came.
    private func popGIF(until deadline: Double?, lines: ([[UInt8]]) -> Void) -> (PreparedGIF, Int)? {
        let buffer = preloader.buffer
        while true {
            let items = !virtualClock ? buffer.tryPopBatch(max: 1)
                : deadline.map { buffer.popBatch(max: 1, until: $0) } ?? buffer.popBatch(max: 1)
            guard let item = items.first else { return nil }
            switch item {
            case .lines(let before):
                lines(before)
            case .gif(let gif, let at, let before):
                lines(before)
                return (gif, at)
            }
        }
    }
}
