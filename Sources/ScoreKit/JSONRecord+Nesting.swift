import SposureKit

// JSONRecord sets strings, integers and booleans. The score and history
// records also hold objects and one-decimal reals; both are made here by
// letting jansson parse a tiny template and sharing its value, so every byte
// of JSON on the data path still goes through jansson.

extension JSONRecord {
    /// Sets `key` to a new empty object and returns it; fields set on the result show in this record.
    @discardableResult
    func setObject(_ key: String) -> JSONRecord {
        if let holder = try? JSONRecord.parse(#"{"o":{}}"#) {
            set(key, from: holder, key: "o")
        }
        return object(key) ?? JSONRecord()
    }

    /// Sets `key` to a real written with one decimal (`4.5`, `7.0`), or null when not finite.
    func setTenths(_ key: String, _ value: Double?) {
        guard let value, value.isFinite, abs(value) < 1e12 else {
            setNull(key)
            return
        }
        let tenths = (value * 10).rounded()
        let sign = tenths < 0 ? "-" : ""
        let magnitude = Int(abs(tenths))
        let text = "\(sign)\(magnitude / 10).\(magnitude % 10)"
        if let holder = try? JSONRecord.parse(#"{"v":\#(text)}"#) {
            set(key, from: holder, key: "v")
        } else {
            setNull(key)
        }
    }

    /// Sets `key` to a string, or null when nil.
    func set(_ key: String, _ value: String?) {
        if let value { set(key, value) } else { setNull(key) }
    }

    /// Sets `key` to a boolean, or null when nil.
    func set(_ key: String, _ value: Bool?) {
        if let value { set(key, value) } else { setNull(key) }
    }
}
