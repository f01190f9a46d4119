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
        case .sessionEnd(let at, let reason):
            record.set("kind", "session")
            record.set("event", "end")
            record.set("t_ms", at)
            record.set("reason", reason.rawValue)
        }
        return record
    }
}
