import SposureKit

extension RoundEvent {
    /// The event as the record written on stdout (docs/stream-format.md).
    public var record: JSONRecord {
        let record = JSONRecord()
        switch self {
        case .stall(let start, let end):
            record.set("kind", "stall")
            record.set("start_ms", start)
            record.set("end_ms", end)
        case .hold(let down, let up):
            record.set("kind", "hold")
            record.set("down_ms", down)
            record.set("up_ms", up)
        case .shown(let shown):
            record.set("kind", "shown")
            record.set("id", shown.id)
            record.set("section", shown.section)
            if let query = shown.query { record.set("query", query) }
            record.set("start_ms", shown.startMs)
            record.set("end_ms", shown.endMs)
            record.set("exposed_ms", shown.exposedMs)
            record.set("frames", shown.frames)
            record.set("completed", shown.completed)
            if let ladder = shown.ladder {
                if let provider = shown.provider { record.set("provider", provider) }
                ladder.write(to: record)
            }
        case .sessionEnd(let at, let reason):
            record.set("kind", "session")
            record.set("event", "end")
            record.set("t_ms", at)
            record.set("reason", reason.rawValue)
        case .rated(let rated):
            record.set("kind", "rated")
            if let provider = rated.provider { record.set("provider", provider) }
            record.set("id", rated.id)
            record.set("rating", rated.rating)
            record.set("t_ms", rated.atMs)
        case .rating(let rating):
            record.set("kind", "rating")
            rating.write(to: record)
        }
        return record
    }
}
