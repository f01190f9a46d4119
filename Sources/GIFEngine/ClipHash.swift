/// What a GIF looks like, in two ``FrameHash``es: its first frame with
/// detail, and the frame on screen ``laterMs`` after that one came on (its
/// last when the clip ends sooner). Two GIFs are the same clip when both
/// kinds of hash agree (``isSameClip(as:)``): the difference hashes of the
/// two frames together within ``gradientThreshold`` bits, and the cosine
/// hashes within ``cosineThreshold``. The first frame alone would take two
/// clips that open on the same title card, or the same empty scene, for
/// one; the difference hash alone, two pictures lit from the same side.
///
/// The first frame with detail, not the first frame: a clip that opens on
/// blank frames (black, a flat colour, too little to tell at 9×8) is known
/// by what comes after them, when that comes within ``detailWithinMs``; a
/// copy with a longer or shorter blank opening is still the same clip.
///
/// The later frame is found by time, not by index: a copy re-encoded at
/// another frame rate (every other frame dropped, each shown twice as long)
/// shows the same picture at the same moment. Both frames are among those a
/// player decodes before a GIF can start (its first 0.3 s, or its blank
/// opening and 0.3 s more), so hashing costs no extra decoding.
public struct ClipHash: Sendable, Hashable {
    /// The first frame with detail's hashes.
    public var first: FrameHash
    /// The hashes of the frame on screen ``laterMs`` after ``first``'s came on.
    public var later: FrameHash

    /// The moment of the later frame, in ms of play after the first frame
    /// with detail came on (the frame delays as played: ``DelayPolicy``).
    public static let laterMs = 250
    /// How late in the clip the first frame with detail may come on, in ms
    /// of play: a clip blank longer has no hash (and is never skipped).
    public static let detailWithinMs = 2000
    /// The most frames looked at for the first with detail.
    public static let detailWithinFrames = 100
    /// The most bits the two frames' difference hashes together may
    /// differ by for two GIFs to be the same clip: chosen by measurement
    /// (docs/gif-engine.md, "Same clip, another id").
    public static let gradientThreshold = 16
    /// The most bits the two frames' cosine hashes together may differ by.
    public static let cosineThreshold = 18
    /// A clip's hashes.
    public init(first: FrameHash, later: FrameHash) {
        self.first = first
        self.later = later
    }

    /// The bits the two frames' difference hashes differ by from `other`'s, together: 0 to 128.
    public func gradientDistance(to other: ClipHash) -> Int {
        first.gradient.distance(to: other.first.gradient) + later.gradient.distance(to: other.later.gradient)
    }

    /// The bits the two frames' cosine hashes differ by from `other`'s, together: 0 to 128.
    public func cosineDistance(to other: ClipHash) -> Int {
        first.cosine.distance(to: other.first.cosine) + later.cosine.distance(to: other.later.cosine)
    }

    /// All the bits that differ, 0 to 256: how close two clips are, to pick the closest of several.
    public func distance(to other: ClipHash) -> Int {
        gradientDistance(to: other) + cosineDistance(to: other)
    }

    /// Whether `other` is the same clip: both kinds of hash within their thresholds.
    public func isSameClip(as other: ClipHash) -> Bool {
        gradientDistance(to: other) <= Self.gradientThreshold && cosineDistance(to: other) <= Self.cosineThreshold
    }

    /// The hashes of a GIF's frames as they are decoded, in order: the first
    /// frame with detail's, then the one on screen ``laterMs`` after it.
    public struct Maker: Sendable {
        private var first: FrameHash?
        /// When the first frame with detail came on, and which frame it was (1 on).
        private var firstStart = 0, firstFrame = 0
        private var playedMs = 0
        private var frames = 0
        /// The clip's hashes once both frames were seen (nil before, and for
        /// a canvas too small to hash, a clip with no frame with detail in
        /// its opening, or a later frame with too little detail).
        public private(set) var hash: ClipHash?
        /// Whether no frame needs hashing any more (both seen, none with
        /// detail in the opening, or the canvas is too small).
        public private(set) var isDone = false

        /// Nothing seen yet.
        public init() {}

        /// Nothing seen yet of a `width`×`height` canvas: done at once when
        /// it is too small to hash, so that no frame is looked at.
        public init(width: Int, height: Int) {
            isDone = width < PerceptualHash.minimumWidth || height < PerceptualHash.minimumHeight
        }

        /// Whether the frame about to be told (by ``frame(delayMs:hash:)``)
        /// is one to hash, so its hash is made only when needed.
        public var wantsNext: Bool { !isDone }

        /// The next frame, shown `delayMs`, whose hash `hash()` gives when
        /// asked (nil: too small, or too little detail). Returns whether it was asked.
        @discardableResult
        public mutating func frame(delayMs: Int, hash: () -> FrameHash?) -> Bool {
            guard !isDone else { return false }
            let start = playedMs
            playedMs += delayMs
            frames += 1
            var asked = false
            if first == nil {
                guard start <= ClipHash.detailWithinMs, frames <= ClipHash.detailWithinFrames else {
                    isDone = true
                    return false
                }
                // A blank frame of the opening: the next may have detail.
                guard let made = hash() else { return true }
                (first, firstStart, firstFrame, asked) = (made, start, frames, true)
            }
            let at = firstStart + ClipHash.laterMs
            guard start <= at, at < playedMs else { return asked }
            finish(later: frames == firstFrame ? first : hash())
            return true
        }

        /// The frames ended before ``laterMs`` after the first with detail:
        /// the last one, whose hash `hash()` gives, stands for the later frame.
        public mutating func ended(lastFrame hash: () -> FrameHash?) {
            guard !isDone else { return }
            guard first != nil else {
                isDone = true
                return
            }
            finish(later: frames == firstFrame ? first : hash())
        }

        private mutating func finish(later: FrameHash?) {
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
        var maker = Maker(width: decoder.info.width, height: decoder.info.height)
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
