/// Where a color table's bytes are: `count` RGB triples from `offset`.
struct ColorTableSpan: Sendable, Equatable {
    /// The offset of the first entry.
    var offset: Int
    /// The number of entries (2 to 256).
    var count: Int
}
