import HistoryKit
import SposureKit

/// The round's feed from the gif buffer: on a virtual clock it waits for the
/// next item (the same input gives the same events however far the reading
/// ahead got); on a real one it takes what is there. A GIF fitted before a
/// resize is fitted again to the new layout as it is taken.
///
/// New GIFs first: given the GIFs shown in recent rounds (``recent``), when
/// the GIF next in line is one of them and one that is not is ready (in the
/// gif buffer now, at most ``lookAhead`` GIFs on; on a virtual clock, among
/// the next ``lookAhead`` of the input, arriving no later), that one plays
/// first. The feed never waits for a new one: with none ready, the GIF seen
/// longest ago plays. The GIFs passed over stay in line, in order, and the
/// records between GIFs are written in input order whatever plays first.
public final class PreloaderFeed: RoundFeed {
    private let preloader: Preloader
    private let virtualClock: Bool
    /// The most GIFs looked at past the one next in line.
    public let lookAhead: Int
    /// The GIFs shown in the last rounds of this rung or query; nil (or
    /// empty): every GIF is new, and the feed keeps input order.
    public var recent: RecentGIFs?

    /// A GIF taken from the gif buffer, not handed out yet.
    private struct Entry {
        var gif: PreparedGIF
        var at: Int
        /// The lines before it not written yet.
        var lines: [[UInt8]]
        var rest: GIFDecoding?
    }

    /// GIFs taken from the gif buffer ahead of the round (``peekFirst(until:)``)
    /// or to look past one seen lately, in input order.
    private var ahead: [Entry] = []
    /// Lines taken from the gif buffer after the last GIF of ``ahead``.
    private var lines: [[UInt8]] = []

    /// A feed from `preloader`'s gif buffer, looking at most `lookAhead` GIFs past the next for a new one.
    public init(preloader: Preloader, virtualClock: Bool, lookAhead: Int = 2) {
        self.preloader = preloader
        self.virtualClock = virtualClock
        self.lookAhead = max(0, lookAhead)
    }

    /// The record of the first GIF, taken ahead of the round (its lines kept
    /// for their place): is it a ladder round? Waits until `deadline` (nil:
    /// until it comes or the input ends; now: not at all). Nil when none
    /// came by then (see ``isFinished``: the input may have ended).
    public func peekFirst(until deadline: Double?) -> JSONRecord? {
        if let first = ahead.first { return first.gif.record }
        let buffer = preloader.buffer
        while true {
            let items: [BufferItem]
            if let deadline { items = deadline <= monotonicSeconds() ? buffer.tryPopBatch(max: 1) : buffer.popBatch(max: 1, until: deadline) }
            else { items = buffer.popBatch(max: 1) }
            guard let item = items.first else { return nil }
            if take(item) { return ahead.first?.gif.record }
        }
    }

    /// The next GIF, a new one first (see the type's notes), after handing
    /// every line before it to `lines`; on a real clock it is available at
    /// once (an `at_ms` only means something on a virtual clock).
    public func nextGIF(lines write: ([[UInt8]]) -> Void) -> (gif: PreparedGIF, availableAt: Int)? {
        if ahead.isEmpty && !fill(until: 1) {
            // No GIF: the lines read so far go out now, as they always did.
            if !lines.isEmpty { write(lines) }
            lines = []
            return nil
        }
        let chosen = choose()
        var before: [[UInt8]] = []
        for index in 0...chosen {
            before += ahead[index].lines
            ahead[index].lines = []
        }
        if !before.isEmpty { write(before) }
        let entry = ahead.remove(at: chosen)
        if entry.gif.layout != preloader.layout, let refitted = preloader.refit(entry.gif) {
            return (refitted, virtualClock ? entry.at : 0)
        }
        preloader.startFinishing(entry.rest)
        return (entry.gif, virtualClock ? entry.at : 0)
    }

    /// Whether the gif buffer is closed and empty, and nothing is held here.
    public var isFinished: Bool { ahead.isEmpty && lines.isEmpty && preloader.buffer.isFinished }

    /// On a virtual clock this waits for the next item, up to 5 s for an
    /// input that stays open; on a real one it takes what is there. Every
    /// GIF held here is dropped.
    public func linesBeforeNextGIF(lines write: ([[UInt8]]) -> Void) {
        if ahead.isEmpty { _ = fill(until: 1, deadline: monotonicSeconds() + 5) }
        if let first = ahead.first {
            if !first.lines.isEmpty { write(first.lines) }
        } else if !lines.isEmpty {
            write(lines)
        }
        for entry in ahead { entry.gif.frames.cancel() }
        ahead = []
        lines = []
    }

    // MARK: Choosing

    /// The place in ``ahead`` (not empty) of the GIF to play: the first
    /// new one ready, else the one seen longest ago, else the first.
    private func choose() -> Int {
        guard let recent, !recent.isEmpty else { return 0 }
        let age = { (entry: Entry) in recent.age(provider: entry.gif.provider, id: entry.gif.id, hash: entry.gif.clipHash?.first.gradient.hex,
                                               hashDCT: entry.gif.clipHash?.first.cosine.hex) }
        guard let headAge = age(ahead[0]) else { return 0 }
        _ = fill(until: 1 + lookAhead)
        // On a virtual clock a GIF arriving after the first would be a wait: only those there as soon.
        let ready = ahead.indices.filter { $0 == 0 || ahead[$0].at <= ahead[0].at }
        if let new = ready.first(where: { age(ahead[$0]) == nil }) { return new }
        var best = (index: 0, age: headAge)
        for index in ready.dropFirst() {
            if let seen = age(ahead[index]), seen > best.age { best = (index, seen) }
        }
        return best.index
    }

    // MARK: Taking from the gif buffer

    /// Takes items until ``ahead`` holds `count` GIFs: on a virtual clock
    /// waiting for them (until `deadline`, when given), on a real one
    /// taking what is there. Returns whether ``ahead`` holds any.
    private func fill(until count: Int, deadline: Double? = nil) -> Bool {
        let buffer = preloader.buffer
        while ahead.count < count {
            let items = !virtualClock ? buffer.tryPopBatch(max: 1)
                : deadline.map { buffer.popBatch(max: 1, until: $0) } ?? buffer.popBatch(max: 1)
            guard let item = items.first else { break }
            take(item)
        }
        return !ahead.isEmpty
    }

    /// Keeps `item`: lines until the next GIF, a GIF with the lines before
    /// it. Returns whether it was a GIF.
    @discardableResult
    private func take(_ item: BufferItem) -> Bool {
        switch item {
        case .lines(let more):
            lines += more
            return false
        case .gif(let gif, let at, let before, let rest):
            ahead.append(Entry(gif: gif, at: at, lines: lines + before, rest: rest))
            lines = []
            return true
        }
    }
}
