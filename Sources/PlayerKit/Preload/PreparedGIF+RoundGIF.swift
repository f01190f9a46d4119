import LadderKit
import RecordKit

extension PreparedGIF: RoundGIF {
    /// The record's section, else its query, else empty.
    public var section: String { record.string(ImageRecord.Field.section) ?? record.string(ImageRecord.Field.query) ?? "" }
    /// The record's query.
    public var query: String? { record.string(ImageRecord.Field.query) }
    /// The record's ladder tag (nil off a ladder).
    public var ladder: LadderTag? { LadderTag(record: record) }
    /// The record's provider.
    public var provider: String? { record.string(ImageRecord.Field.provider) }
    /// The record's provider and creator (none for a GIF from no API).
    public var credit: Credit? { Credit(record: record) }
    /// One frame, or the record says `still: true`; not while it comes closer (its steps are frames).
    public var isStill: Bool { (frameCount == 1 || record.bool(LadderTag.Field.still) == true) && !approaching }
    /// A still, or a still coming closer: its steps play once.
    public var playsOnce: Bool { isStill || approaching }
    /// The record's title.
    public var title: String? { record.string(ImageRecord.Field.title) }
    /// The frames still to decode are dropped.
    public func discard() { frames.cancel() }
}
