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
