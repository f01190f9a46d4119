/// The page requests for result lists: how many, in which order.
public enum PagePlan {
    /// The pages of one list: `limit` results each, up to `maxResults`, the
    /// known `total`, and the endpoint's offset cap, whichever comes first.
    public static func pages(endpoint: GiphyEndpoint, query: String?, section: String, total: Int?,
                             limit: Int, maxResults: Int?, rating: String, lang: String) -> [PageRequest] {
        var end = endpoint.offsetCap + 1
        if let total { end = min(end, total) }
        if let maxResults { end = min(end, maxResults) }
        var pages: [PageRequest] = []
        var offset = 0
        while offset < end {
            pages.append(PageRequest(endpoint: endpoint, query: query, section: section, offset: offset,
                                     limit: min(limit, end - offset), rating: rating, lang: lang, total: total))
            offset += limit
        }
        return pages
    }

    /// The pages of one Klipy list, numbered from 1, `perPage` results each
    /// (the page size fixes the numbering, so the last page asks a whole page
    /// and its `limit` says how many to keep), up to `maxResults`. Klipy says
    /// no total: the lister stops asking once a page says `has_next: false`.
    public static func klipyPages(endpoint: GiphyEndpoint, query: String?, section: String, perPage: Int,
                                  maxResults: Int, rating: String, lang: String) -> [PageRequest] {
        var pages: [PageRequest] = []
        var offset = 0
        while offset < maxResults {
            pages.append(PageRequest(endpoint: endpoint, query: query, section: section, offset: offset,
                                     limit: min(perPage, maxResults - offset), rating: rating, lang: lang, total: nil,
                                     provider: .klipy, page: pages.count + 1, perPage: perPage))
            offset += perPage
        }
        return pages
    }

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
