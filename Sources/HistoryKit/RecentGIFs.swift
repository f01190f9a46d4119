/// The GIFs shown in the last rounds on one rung (or query), as
/// ``SeenFile/recent(query:ladder:rung:rounds:)`` gives them, asked about
/// GIFs of a new round: was this one shown lately (its provider and id, or
/// its first frame with detail's hashes close to one kept: ``FirstFrameHash``),
/// and how many rounds ago? `gif-play` plays new ones first; `score` counts them.
public struct RecentGIFs: Sendable {
    private var byKey: [String: Int] = [:]
    private var byHash: [(hash: FirstFrameHash, age: Int)] = []

    /// The GIFs of `recent`, each with how many rounds ago it was shown last (0: the latest).
    public init(_ recent: [SeenRound.GIF: Int] = [:]) {
        for (gif, age) in recent {
            byKey[gif.key] = min(byKey[gif.key] ?? age, age)
            if let hash = FirstFrameHash(hash: gif.hash, hashDCT: gif.hashDCT) { byHash.append((hash, age)) }
        }
    }

    /// Whether none is kept.
    public var isEmpty: Bool { byKey.isEmpty }

    /// How many rounds ago the GIF `provider` (nil: giphy) `id`, whose first
    /// first frame with detail hashes to `hash` and `hashDCT` (16 hex digits
    /// each, when known), was shown last; nil when it was not shown in those
    /// rounds: a new GIF.
    public func age(provider: String?, id: String, hash: String?, hashDCT: String? = nil) -> Int? {
        var age = byKey[SeenRound.GIF(provider: provider ?? "giphy", id: id).key]
        if let hash = FirstFrameHash(hash: hash, hashDCT: hashDCT) {
            for kept in byHash where kept.hash.matches(hash) {
                age = min(age ?? kept.age, kept.age)
            }
        }
        return age
    }

    /// The 64 bits of a hash written as 16 hex digits; nil for anything else.
    public static func bits(_ hex: String) -> UInt64? { FirstFrameHash.bits(hex) }
}
