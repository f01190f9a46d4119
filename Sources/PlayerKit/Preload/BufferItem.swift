import SposureKit

/// What the player takes from the gif buffer, in input order.
public enum BufferItem: @unchecked Sendable {
    /// A GIF ready to play; `availableAt` is its arrival on a virtual clock
    /// (the record's `at_ms`, else 0); `linesBefore` are the lines the input
    /// had before it, to write when the player reaches it; `rest` the
    /// decoding of its later frames, started when the feed hands it out.
    case gif(PreparedGIF, availableAt: Int, linesBefore: [[UInt8]], rest: GIFDecoding?)
    /// Lines to write as they are (records passed through, error records)
    /// with no GIF after them yet.
    case lines([[UInt8]])
}
