import SposureKit

extension JSONRecord {
    /// Sets `key` to a real rounded to one decimal (`4.5`, `7.0`), or null when not finite.
    public func setTenths(_ key: String, _ value: Double?) {
        guard let value, value.isFinite, abs(value) < 1e12 else {
            setNull(key)
            return
        }
        set(key, (value * 10).rounded() / 10)
    }
}

/// A real written to tenths (``JSONRecord/setTenths(_:_:)``) in a field list
/// (``JSONRecord/set(_:)``); null when nil or not finite.
public struct Tenths: JSONFieldValue {
    /// The value.
    public var value: Double?

    /// `value`, to be written to tenths.
    public init(_ value: Double?) { self.value = value }

    /// Sets `key` to the value rounded to tenths.
    public func set(in record: JSONRecord, at key: String) { record.setTenths(key, value) }
}
