import CJansson

extension JSONRecord {
    /// The array of strings at `key`; nil when `key` holds no array, or an
    /// array with something other than a string in it.
    public func strings(_ key: String) -> [String]? {
        guard let array = json_object_get(object, key), array.pointee.type == JSON_ARRAY else { return nil }
        var result: [String] = []
        for index in 0..<json_array_size(array) {
            guard let value = json_array_get(array, index), value.pointee.type == JSON_STRING,
                  let chars = json_string_value(value) else { return nil }
            let count = json_string_length(value)
            result.append(chars.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            })
        }
        return result
    }

    /// The strings of the array at `key`, at most `limit` of them, anything
    /// else in it passed over (an API's tag list with a number among its
    /// tags keeps its tags); empty when `key` holds no array.
    public func stringElements(_ key: String, limit: Int = .max) -> [String] {
        guard let array = json_object_get(object, key), array.pointee.type == JSON_ARRAY else { return [] }
        var result: [String] = []
        for index in 0..<json_array_size(array) where result.count < limit {
            guard let value = json_array_get(array, index), value.pointee.type == JSON_STRING,
                  let chars = json_string_value(value) else { continue }
            let count = json_string_length(value)
            result.append(chars.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            })
        }
        return result
    }

    /// Sets `key` to an array of strings.
    public func set(_ key: String, strings: [String]) {
        guard let array = json_array() else { return }
        for string in strings {
            if let value = Self.jsonString(string) { json_array_append_new(array, value) }
        }
        json_object_set_new(object, key, array)
    }
}
