extension PreparedGIF: RoundGIF {
    /// The record's section, else its query, else empty.
    public var section: String { record.string("section") ?? record.string("query") ?? "" }
    /// The record's query.
    public var query: String? { record.string("query") }
}
