/// The GIFs shown in the last rounds on one rung (or query), as
/// ``SeenFile/recent(query:ladder:rung:rounds:)`` gives them, asked about
/// GIFs of a new round: was this one shown lately (its provider and id, or
/// its first frame's perceptual hash within ``hashThreshold`` bits of one
/// kept), and how many rounds ago? `gif-play` plays new ones first; `score`
/// counts them.
public struct RecentGIFs: Sendable {
    /// The most bits two first frames' hashes may differ by for the GIFs to
    /// be the same clip, when only first frames are known: half of
    /// gif-play's threshold for the two frames it hashes (`ClipHash.threshold`,
    /// 11; a test keeps the two in step).
    public static let hashThreshold = 5

    private var byKey: [String: Int] = [:]
    private var byHash: [(bits: UInt64, age: Int)] = []

    /// The GIFs of `recent`, each with how many rounds ago it was shown last (0: the latest).
    public init(_ recent: [SeenRound.GIF: Int] = [:]) {
        for (gif, age) in recent {
            byKey[gif.key] = min(byKey[gif.key] ?? age, age)
            if let bits = gif.hash.flatMap(Self.bits) { byHash.append((bits, age)) }
        }
    }

    /// Whether none is kept.
    public var isEmpty: Bool { byKey.isEmpty }

    /// How many rounds ago the GIF `provider` (nil: giphy) `id`, whose first
    /// frame hashes to `hash` (16 hex digits, when known), was shown last;
    /// nil when it was not shown in those rounds: a new GIF.
    public func age(provider: String?, id: String, hash: String?) -> Int? {
        var age = byKey[SeenRound.GIF(provider: provider ?? "giphy", id: id).key]
        if let bits = hash.flatMap(Self.bits) {
            for kept in byHash where (kept.bits ^ bits).nonzeroBitCount <= Self.hashThreshold {
                age = min(age ?? kept.age, kept.age)
            }
        }
        return age
    }

    /// The 64 bits of a hash written as 16 hex digits; nil for anything else.
    public static func bits(_ hex: String) -> UInt64? {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return UInt64(hex, radix: 16)
    }
}
