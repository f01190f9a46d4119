import SposureKit

// The stream kit knows lines, records and bad lines, but no record kind: the
// stage's `error` records are written here, where ErrorRecord is, and handed
// to the stream kit's output sequencer as a writer.
extension Stage {
    /// The `bad_json` error record for a line that is not a record.
    public func badLineRecord(_ bad: BadLine) -> [UInt8] {
        ErrorRecord(badLine: bad, stage: name).record().serialized()
    }

    /// Turns `record` into an error record of this stage, keeping its other fields.
    @discardableResult
    public func makeError(_ record: JSONRecord, code: String, message: String) -> JSONRecord {
        ErrorRecord(stage: name, code: code, message: message).write(over: record)
        return record
    }
}
