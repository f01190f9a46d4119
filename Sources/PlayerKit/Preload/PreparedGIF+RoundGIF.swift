import LadderKit

extension PreparedGIF: RoundGIF {
    /// The record's section, else its query, else empty.
    public var section: String { record.string("section") ?? record.string("query") ?? "" }
    /// The record's query.
    public var query: String? { record.string("query") }
    /// The record's ladder tag (nil off a ladder).
    public var ladder: LadderTag? { LadderTag(record: record) }
    /// The record's provider.
    public var provider: String? { record.string("provider") }
    /// The record's provider and creator (none for a GIF from no API).
    public var credit: Credit? { Credit(record: record) }
    /// The record says `still: true`.
    public var isStill: Bool { record.bool("still") == true && !approaching }
    /// The record's title.
    public var title: String? { record.string("title") }
    /// The frames still to decode are dropped.
    public func discard() { frames.cancel() }
}
