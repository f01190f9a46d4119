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

    /// The next GIF; on a real clock it is available at once (an `at_ms`
    /// only means something on a virtual clock).
    public func nextGIF(lines: ([[UInt8]]) -> Void) -> (gif: PreparedGIF, availableAt: Int)? {
        guard let (gif, at) = popGIF(until: nil, lines: lines) else { return nil }
        if gif.layout != preloader.layout, let refitted = preloader.refit(gif) {
            return (refitted, virtualClock ? at : 0)
        }
        return (gif, virtualClock ? at : 0)
    }

    /// Whether the gif buffer is closed and empty.
    public var isFinished: Bool { preloader.buffer.isFinished }

    /// On a virtual clock this waits for the next item, up to 5 s for an
    /// input that stays open; on a real one it takes what is there.
    public func linesBeforeNextGIF(lines: ([[UInt8]]) -> Void) {
        popGIF(until: monotonicSeconds() + 5, lines: lines)?.0.frames.cancel()
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
