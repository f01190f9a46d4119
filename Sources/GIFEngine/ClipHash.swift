/// What a GIF looks like, in two ``PerceptualHash``es: its first frame, and
/// the frame on screen ``laterMs`` into the clip (its last when it is
/// shorter). Two GIFs are the same clip when both pairs are within
/// ``threshold`` bits (``isSameClip(as:)``): the first frame alone would
/// take two clips that open on the same title card, or the same empty
/// scene, for one.
///
/// The later frame is found by time, not by index: a copy re-encoded at
/// another frame rate (every other frame dropped, each shown twice as long)
/// shows the same picture at the same moment. Both frames are among those a
/// player decodes before a GIF can start (its first 0.3 s), so hashing costs
/// no extra decoding.
public struct ClipHash: Sendable, Hashable {
    /// The first frame's hash.
    public var first: PerceptualHash
    /// The hash of the frame on screen at ``laterMs``.
    public var later: PerceptualHash

    /// The moment of the later frame, in ms of play (the frame delays as
    /// played: ``DelayPolicy``).
    public static let laterMs = 250
    /// The most bits the two pairs of hashes together may differ by for two
    /// GIFs to be the same clip: chosen by measurement (docs/gif-engine.md,
    /// "Same clip, another id").
    public static let threshold = 11

    /// A clip's hashes.
    public init(first: PerceptualHash, later: PerceptualHash) {
        self.first = first
        self.later = later
    }

    /// The bits that differ from `other`'s, both frames together: 0 to 128.
    public func distance(to other: ClipHash) -> Int {
        first.distance(to: other.first) + later.distance(to: other.later)
    }

    /// Whether `other` is the same clip: at most `threshold` bits apart.
    public func isSameClip(as other: ClipHash, threshold: Int = ClipHash.threshold) -> Bool {
        distance(to: other) <= threshold
    }

    /// The hashes of a GIF's frames as they are decoded, in order: the first
    /// frame's, then the one on screen at ``laterMs``.
    public struct Maker: Sendable {
        private var first: PerceptualHash?
        private var playedMs = 0
        private var frames = 0
        /// The clip's hashes once both frames were seen (nil before, and for
        /// a canvas too small to hash or a frame with too little detail).
        public private(set) var hash: ClipHash?
        /// Whether no frame needs hashing any more (both seen, or the canvas is too small).
        public private(set) var isDone = false

        /// Nothing seen yet.
        public init() {}

        /// Whether the frame about to be told (by ``frame(delayMs:hash:)``)
        /// is one to hash, so its hash is made only when needed.
        public var wantsNext: Bool { !isDone }

        /// The next frame, shown `delayMs`, whose hash `hash()` gives when
        /// asked (nil: too small). Returns whether it was asked.
        @discardableResult
        public mutating func frame(delayMs: Int, hash: () -> PerceptualHash?) -> Bool {
            guard !isDone else { return false }
            let start = playedMs
            playedMs += delayMs
            frames += 1
            if frames == 1 {
                guard let made = hash() else {
                    isDone = true
                    return true
                }
                first = made
            }
            guard start <= ClipHash.laterMs, ClipHash.laterMs < playedMs else { return frames == 1 }
            finish(later: frames == 1 ? first : hash())
            return true
        }

        /// The frames ended before ``laterMs``: the last one, whose hash
        /// `hash()` gives, stands for the later frame.
        public mutating func ended(lastFrame hash: () -> PerceptualHash?) {
            guard !isDone, frames > 0 else { return }
            finish(later: frames == 1 ? first : hash())
        }

        private mutating func finish(later: PerceptualHash?) {
            isDone = true
            if let first, let later { hash = ClipHash(first: first, later: later) }
        }
    }
}

extension ClipHash {
    /// The hashes of the GIF `decoder` reads, decoding its frames through the
    /// later one (tools and tests; the player makes them as it decodes).
    /// Nil for a canvas too small to hash. Throws the fault that stops the
    /// file before its first frame; a fault later ends the frames there.
    public static func make(from decoder: GIFDecoder) throws(GIFError) -> ClipHash? {
        var maker = Maker()
        while maker.wantsNext {
            let frame: Frame?
            do {
                frame = try decoder.nextFrame()
            } catch {
                if decoder.framesDecoded == 0 { throw error }
                return maker.hash
            }
            guard let frame else {
                maker.ended(lastFrame: decoder.frameHash)
                break
            }
            maker.frame(delayMs: frame.delayMs, hash: decoder.frameHash)
        }
        return maker.hash
    }
}
