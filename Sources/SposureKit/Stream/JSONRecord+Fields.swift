/// A value a record's field holds, as ``JSONRecord/set(_:)`` writes it: a
/// string, a whole number, a boolean, a real, or an optional of one (null
/// when nil; ``Optional/omittedWhenNil`` writes nothing instead).
public protocol JSONFieldValue {
    /// Sets `key` of `record` to the value.
    func set(in record: JSONRecord, at key: String)
}

extension String: JSONFieldValue {
    /// Sets `key` to the string.
    public func set(in record: JSONRecord, at key: String) { record.set(key, self) }
}

extension Int: JSONFieldValue {
    /// Sets `key` to the number.
    public func set(in record: JSONRecord, at key: String) { record.set(key, self) }
}

extension Bool: JSONFieldValue {
    /// Sets `key` to the boolean.
    public func set(in record: JSONRecord, at key: String) { record.set(key, self) }

    /// `true`, or no field at all when false (flags written only when set).
    public var omittedWhenFalse: OmittedWhenNil<Bool> { OmittedWhenNil(self ? true : nil) }
}

extension Double: JSONFieldValue {
    /// Sets `key` to the real (null when not finite).
    public func set(in record: JSONRecord, at key: String) { record.set(key, self) }
}

extension Optional: JSONFieldValue where Wrapped: JSONFieldValue {
    /// Sets `key` to the value, or to null when nil.
    public func set(in record: JSONRecord, at key: String) {
        if let self { self.set(in: record, at: key) } else { record.setNull(key) }
    }

    /// The value, or no field at all when nil (rather than null).
    public var omittedWhenNil: OmittedWhenNil<Wrapped> { OmittedWhenNil(self) }
}

/// A field written only when it has a value (``Optional/omittedWhenNil``).
public struct OmittedWhenNil<Wrapped: JSONFieldValue>: JSONFieldValue {
    /// The value; nil writes nothing.
    public var value: Wrapped?

    /// The field of `value`.
    public init(_ value: Wrapped?) { self.value = value }

    /// Sets `key` to the value when there is one; else leaves `record` as it is.
    public func set(in record: JSONRecord, at key: String) { value?.set(in: record, at: key) }
}

extension JSONRecord {
    /// Sets each field in turn, in this order (an existing key keeps its
    /// place): a record's fields written from one list.
    ///
    ///     record.set([(Field.kind, Self.kind), (Field.index, 0), (Field.path, path.omittedWhenNil)])
    public func set(_ fields: [(key: String, value: any JSONFieldValue)]) {
        for (key, value) in fields { value.set(in: self, at: key) }
    }
}
