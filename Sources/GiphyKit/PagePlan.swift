/// The order of page requests across result lists (each API plans its own
/// list: ``GIFAPI/pages(endpoint:query:section:total:limit:maxResults:rating:lang:)``).
public enum PagePlan {
    /// Sections one page each in turn: a1 b1 c1 a2 b2 c2 …
    public static func interleave(_ sections: [[PageRequest]]) -> [PageRequest] {
        var result: [PageRequest] = []
        let longest = sections.map(\.count).max() ?? 0
        for index in 0..<longest {
            for section in sections where index < section.count { result.append(section[index]) }
        }
        return result
    }

    /// The pages in a random order fixed by `seed`, each exactly once.
    public static func shuffle(_ pages: [PageRequest], seed: UInt64) -> [PageRequest] {
        var pages = pages
        var generator = SplitMix64(seed: seed)
        pages.shuffle(using: &generator)
        return pages
    }
}

/// A small, fast generator whose sequence depends only on its seed, so
/// `--shuffle --seed S` gives the same order on every machine and every run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
