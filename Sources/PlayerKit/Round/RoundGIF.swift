import GIFEngine
import LadderKit
import RecordKit

/// A GIF as the round sees it: its frames' delays and whether they are
/// decoded yet, and what the `shown` event says of it. ``PreparedGIF`` is
/// one; tests give the round GIFs of their own.
public protocol RoundGIF {
    /// The id written in the `shown` event.
    var id: String { get }
    /// The section written in the `shown` event and on the status line (the
    /// record's section, else its query, else empty).
    var section: String { get }
    /// The record's query, when it has one.
    var query: String? { get }
    /// How long frame `index` shows, in ms (it must exist).
    func delay(_ index: Int) -> Int
    /// Whether frame `index` exists; may wait for the decoder to get there.
    func hasFrame(_ index: Int) -> Bool
    /// Whether frame `index` is decoded (true), never will be (false), or may
    /// still come (nil), without waiting.
    func frameReady(_ index: Int) -> Bool?
    /// The ladder tag of its record, for its `shown` (nil off a ladder).
    var ladder: LadderTag? { get }
    /// Its record's provider, for a `rated` event.
    var provider: String? { get }
    /// A still: shown on its first frame, once, for the still time
    /// (``PlayerConfiguration/stillMs``). A picture of one frame (a JPEG, a
    /// PNG, a WebP or GIF of one frame) is one, and so is any picture whose
    /// record says `still: true` (a ladder's rung of stills).
    var isStill: Bool { get }
    /// Plays through once, whatever `--loops` and `--min-seconds` say: a
    /// still, and a still coming closer (going back to its first step would
    /// move away from the picture).
    var playsOnce: Bool { get }
    /// What the status line credits while it is on screen (nil: nothing).
    var credit: Credit? { get }
    /// Its record's title, for an `off_topic` event.
    var title: String? { get }
    /// What the clip looks like, to know it again under another id (nil: unknown).
    var clipHash: ClipHash? { get }
    /// It will not be shown (again): the frames still to decode are not wanted.
    func discard()
}

extension RoundGIF {
    /// The ladder tag its `shown` carries: none, unless the GIF says.
    public var ladder: LadderTag? { nil }
    /// The provider a `rated` event names: none, unless the GIF says.
    public var provider: String? { nil }
    /// A still: no, unless the GIF says.
    public var isStill: Bool { false }
    /// Once: when it is a still, unless the GIF says.
    public var playsOnce: Bool { isStill }
    /// Credited: nobody, unless the GIF says.
    public var credit: Credit? { nil }
    /// No title, unless the GIF says.
    public var title: String? { nil }
    /// No hash, unless the GIF has one.
    public var clipHash: ClipHash? { nil }
    /// Nothing to stop, unless the GIF is decoding.
    public func discard() {}
}
