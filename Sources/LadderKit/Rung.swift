/// One step of a ladder: what is shown, and how much distress it is expected to bring.
public struct Rung: Sendable, Equatable {
    /// The searches of the rung (one or more), empty when it plays a folder.
    public var queries: [String]
    /// A folder of the person's own GIFs, played in place (no network); nil for searches.
    public var dir: String?
    /// The expected distress, 0–100 SUDS.
    public var suds: Int
    /// Show each GIF frozen on its first frame (stills before motion).
    public var still: Bool
    /// Each still comes slowly closer while shown (`"approach"`: gif-play's `--approach auto`).
    public var approach = false
    /// Words whose GIFs the rung leaves out (`"avoid"`), besides the ladder's.
    public var avoid: [String] = []
    /// The searches for one API in place of ``queries`` (`"by_provider"`):
    /// what finds the rung's pictures on Wikimedia Commons is not what finds
    /// its GIFs on Giphy ("Salticidae", not "jumping spider gif").
    public var providerQueries: [String: [String]] = [:]

    /// A rung of searches.
    public init(queries: [String], suds: Int, still: Bool = false, avoid: [String] = []) {
        self.queries = queries
        self.avoid = avoid
        self.dir = nil
        self.suds = suds
        self.still = still
    }

    /// A rung of the person's own GIFs.
    public init(dir: String, suds: Int, still: Bool = false) {
        self.queries = []
        self.dir = dir
        self.suds = suds
        self.still = still
    }

    /// The searches of the rung on the API named `provider` (`giphy`,
    /// `klipy`, `commons`): its own when the rung names some, else ``queries``.
    public func queries(for provider: String?) -> [String] {
        provider.flatMap { providerQueries[$0] } ?? queries
    }

    /// What it shows, for people: the queries joined, or the folder.
    public var label: String {
        dir ?? queries.joined(separator: ", ")
    }
}
