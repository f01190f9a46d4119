import GIFEngine
import HistoryKit

/// The clips shown so far in the round, and those marked off-topic in
/// earlier rounds, by their perceptual hashes: a GIF taken from the stream
/// that is one of them under another id (re-uploaded, re-encoded, resized,
/// cropped) is passed over before it is shown.
struct RoundClips {
    private var shown: [(id: String, hash: ClipHash)] = []
    /// The clips marked off-topic (the ratings file's marks that carry a hash).
    var marked: [(id: String, hash: FirstFrameHash)] = []

    /// `gif` came on screen.
    mutating func add(_ gif: some RoundGIF) {
        guard let hash = gif.clipHash else { return }
        shown.append((gif.id, hash))
    }

    /// The id of the GIF shown this round that `gif` is the same clip as
    /// (the closest, the earliest of equals); nil when none, or `gif` has no hash.
    func sameClip(as gif: some RoundGIF) -> String? {
        guard let hash = gif.clipHash else { return nil }
        var best: (id: String, distance: Int)?
        for (id, other) in shown where hash.isSameClip(as: other) {
            let distance = hash.distance(to: other)
            if best == nil || distance < best!.distance { best = (id, distance) }
        }
        return best?.id
    }

    /// The id of the GIF marked off-topic that `gif` is the same clip as
    /// (by its first frame with detail: the marks keep no more); nil when
    /// none, or `gif` has no hash.
    func markedOffTopic(_ gif: some RoundGIF) -> String? {
        guard !marked.isEmpty, let clip = gif.clipHash,
              let hash = FirstFrameHash(hash: clip.first.gradient.hex, hashDCT: clip.first.cosine.hex) else { return nil }
        return marked.first { $0.hash.matches(hash) }?.id
    }
}
