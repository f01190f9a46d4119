import CJansson
import FoundationEssentials
import Glibc

/// One NDJSON record: a JSON object held by jansson, so fields a stage does
/// not know about keep their values and their order when it writes the record.
public final class JSONRecord: @unchecked Sendable {
    /// The jansson object; this record owns one reference to it.
    let object: UnsafeMutablePointer<json_t>

    init(owning object: UnsafeMutablePointer<json_t>) {
        self.object = object
    }

    deinit { json_decref(object) }

    /// A new, empty object.
    public convenience init() {
        self.init(owning: json_object())
    }

    /// Parses one line. Throws ``ParseError`` when it is not a JSON object.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> JSONRecord {
        var error = json_error_t()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count > 0 else {
            throw ParseError(message: "empty line", column: 0)
        }
        guard let value = json_loadb(base, bytes.count, 0, &error) else {
            let text = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw ParseError(message: text, column: Int(error.column), position: Int(error.position),
                             isNumberOutOfRange: json_error_code(&error) == json_error_numeric_overflow)
        }
        guard value.pointee.type == JSON_OBJECT else {
            let found: String
            switch value.pointee.type {
            case JSON_ARRAY: found = "an array"
            case JSON_STRING: found = "a string"
            case JSON_INTEGER, JSON_REAL: found = "a number"
            case JSON_TRUE, JSON_FALSE: found = "a boolean"
            default: found = "null"
            }
            json_decref(value)
            throw ParseError(message: "found \(found)", column: 1)
        }
        return JSONRecord(owning: value)
    }

    /// Parses a line given as a string (tests and small tools).
    public static func parse(_ text: String) throws(ParseError) -> JSONRecord {
        try parse(Array(text.utf8))
    }

    /// Parses a line given as bytes (a file read whole).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONRecord {
        var result = Result<JSONRecord, ParseError>.failure(ParseError(message: "empty line", column: 0))
        bytes.withUnsafeBytes { raw in
            result = Result { () throws(ParseError) in try parse(raw) }
        }
        return try result.get()
    }

    /// Why a line is not a record, in jansson's words.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        /// jansson's message.
        public var message: String
        /// The 1-based column where jansson gave up.
        public var column: Int
        /// The bytes read before jansson gave up.
        public var position = 0
        /// The text is JSON but holds a number jansson cannot hold (an
        /// integer past 64 bits, a real past a double): jansson's error code.
        public var isNumberOutOfRange = false
        public var description: String { message }
    }

    /// A deep copy that can be changed without touching this one.
    public func copy() -> JSONRecord {
        JSONRecord(owning: json_deep_copy(object))
    }

    // MARK: Reading fields

    /// The record's `kind`, when it is a string.
    public var kind: String? { string("kind") }

    /// The string at `key`, or nil when absent or not a string.
    public func string(_ key: String) -> String? {
        guard let value = json_object_get(object, key), value.pointee.type == JSON_STRING,
              let chars = json_string_value(value) else { return nil }
        let count = json_string_length(value)
        return chars.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// The integer at `key`; a real with no fraction counts as one.
    public func int(_ key: String) -> Int? {
        guard let value = json_object_get(object, key) else { return nil }
        switch value.pointee.type {
        case JSON_INTEGER: return Int(json_integer_value(value))
        case JSON_REAL:
            let real = json_real_value(value)
            return real.rounded() == real && abs(real) < 9e15 ? Int(real) : nil
        default: return nil
        }
    }

    /// The number at `key`, integer or real.
    public func double(_ key: String) -> Double? {
        guard let value = json_object_get(object, key) else { return nil }
        switch value.pointee.type {
        case JSON_INTEGER: return Double(json_integer_value(value))
        case JSON_REAL: return json_real_value(value)
        default: return nil
        }
    }

    /// The boolean at `key`.
    public func bool(_ key: String) -> Bool? {
        guard let value = json_object_get(object, key) else { return nil }
        switch value.pointee.type {
        case JSON_TRUE: return true
        case JSON_FALSE: return false
        default: return nil
        }
    }

    /// A whole number at `key`, also when written as a string (`"480"`), as
    /// Giphy writes most numbers; nil when absent, empty or not a whole number.
    public func lenientInt(_ key: String) -> Int? {
        if let value = int(key) { return value }
        guard let text = string(key), !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    /// The object at `key`, sharing jansson's value (changes show in both).
    public func object(_ key: String) -> JSONRecord? {
        guard let value = json_object_get(object, key), value.pointee.type == JSON_OBJECT else { return nil }
        return JSONRecord(owning: json_incref(value))
    }

    /// The objects in the array at `key` (other elements skipped); nil when
    /// `key` is not an array.
    public func objects(_ key: String) -> [JSONRecord]? {
        guard let array = json_object_get(object, key), array.pointee.type == JSON_ARRAY else { return nil }
        var result: [JSONRecord] = []
        for index in 0..<json_array_size(array) {
            if let value = json_array_get(array, index), value.pointee.type == JSON_OBJECT {
                result.append(JSONRecord(owning: json_incref(value)))
            }
        }
        return result
    }

    /// The number of members of the object at `key` (0 when not an object).
    public func memberCount(_ key: String) -> Int {
        guard let value = json_object_get(object, key), value.pointee.type == JSON_OBJECT else { return 0 }
        return json_object_size(value)
    }

    /// Sets `key` to the value `other` has at `otherKey` (shared, not copied).
    public func set(_ key: String, from other: JSONRecord, key otherKey: String? = nil) {
        guard let value = json_object_get(other.object, otherKey ?? key) else { return }
        json_object_set_new(object, key, json_incref(value))
    }

    /// Whether the record has `key` at all.
    public func has(_ key: String) -> Bool { json_object_get(object, key) != nil }

    /// The keys in order.
    public var keys: [String] {
        var result: [String] = []
        var iter = json_object_iter(object)
        while let current = iter {
            if let key = json_object_iter_key(current) { result.append(String(cString: key)) }
            iter = json_object_iter_next(object, current)
        }
        return result
    }

    // MARK: Changing fields

    /// Sets `key` to a string; an existing key keeps its place.
    public func set(_ key: String, _ value: String) {
        put(key, Self.jsonString(value))
    }

    /// A new jansson string of `value` (its bytes as they are: a Swift string is valid UTF-8).
    static func jsonString(_ value: String) -> UnsafeMutablePointer<json_t>? {
        let utf8 = Array(value.utf8)
        return utf8.isEmpty ? json_string("") : utf8.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { json_stringn_nocheck($0.baseAddress!, $0.count) }
        }
    }

    /// Sets `key` to an integer.
    public func set(_ key: String, _ value: Int) { put(key, json_integer(json_int_t(value))) }

    /// Sets `key` to a boolean.
    public func set(_ key: String, _ value: Bool) { put(key, value ? json_true() : json_false()) }

    /// Sets `key` to null.
    public func setNull(_ key: String) { put(key, json_null()) }

    /// Sets `key` to an optional integer, null when nil.
    public func set(_ key: String, _ value: Int?) {
        if let value { set(key, value) } else { setNull(key) }
    }

    /// Sets `key` to a real (null when not finite: JSON has no NaN or infinity).
    public func set(_ key: String, _ value: Double) {
        if value.isFinite { put(key, json_real(value)) } else { setNull(key) }
    }

    /// Sets `key` to an optional string, null when nil.
    public func set(_ key: String, _ value: String?) {
        if let value { set(key, value) } else { setNull(key) }
    }

    /// Sets `key` to an optional boolean, null when nil.
    public func set(_ key: String, _ value: Bool?) {
        if let value { set(key, value) } else { setNull(key) }
    }

    /// Sets `key` to a new empty object and returns it: fields set on the
    /// result show in this record (jansson shares the value).
    @discardableResult
    public func setObject(_ key: String) -> JSONRecord {
        guard let value = json_object() else { return JSONRecord() }
        json_object_set(object, key, value)
        return JSONRecord(owning: value)
    }

    /// Appends a new empty object to the array at `key` (made when missing,
    /// replaced when `key` holds no array) and returns it: fields set on the
    /// result show in this record, as with ``setObject(_:)``.
    @discardableResult
    public func appendObject(_ key: String) -> JSONRecord {
        var array = json_object_get(object, key)
        if array == nil || array?.pointee.type != JSON_ARRAY {
            guard let made = json_array() else { return JSONRecord() }
            json_object_set_new(object, key, made)
            array = made
        }
        guard let array, let value = json_object() else { return JSONRecord() }
        json_array_append(array, value)
        return JSONRecord(owning: value)
    }

    /// Sets `key` to an object that `fill` writes from `value`, or null when
    /// `value` is nil (like the optional setters).
    public func setObject<Value>(_ key: String, _ value: Value?, _ fill: (JSONRecord, Value) -> Void) {
        guard let value else { return setNull(key) }
        fill(setObject(key), value)
    }

    /// Removes `key` when present.
    public func remove(_ key: String) { json_object_del(object, key) }

    private func put(_ key: String, _ value: UnsafeMutablePointer<json_t>?) {
        guard let value else { return }
        json_object_set_new(object, key, value)
    }

    // MARK: Writing

    /// The record as one compact line of UTF-8, without the newline.
    ///
    /// Written by walking jansson's tree rather than with `json_dumpb`, which
    /// prints every real with 17 significant digits (0.1 as 0.10000000000000001):
    /// here a real is printed with the fewest digits that read back exactly, so
    /// a field a stage passes on keeps the text it came with.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        Self.write(object, to: &out)
        return out
    }

    static func write(_ value: UnsafeMutablePointer<json_t>, to out: inout [UInt8]) {
        switch value.pointee.type {
        case JSON_OBJECT:
            out.append(UInt8(ascii: "{"))
            var iter = json_object_iter(value)
            var first = true
            while let current = iter {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if let key = json_object_iter_key(current), let member = json_object_iter_value(current) {
                    writeString(UnsafeRawBufferPointer(start: key, count: json_object_iter_key_len(current)), to: &out)
                    out.append(UInt8(ascii: ":"))
                    write(member, to: &out)
                }
                iter = json_object_iter_next(value, current)
            }
            out.append(UInt8(ascii: "}"))
        case JSON_ARRAY:
            out.append(UInt8(ascii: "["))
            for index in 0..<json_array_size(value) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if let member = json_array_get(value, index) { write(member, to: &out) }
            }
            out.append(UInt8(ascii: "]"))
        case JSON_STRING:
            writeString(UnsafeRawBufferPointer(start: json_string_value(value), count: json_string_length(value)), to: &out)
        case JSON_INTEGER:
            out.append(contentsOf: String(json_integer_value(value)).utf8)
        case JSON_REAL:
            // Swift prints the shortest text that reads back exactly ("0.1", "2e-07", "1.0").
            out.append(contentsOf: "\(json_real_value(value))".utf8)
        case JSON_TRUE: out.append(contentsOf: "true".utf8)
        case JSON_FALSE: out.append(contentsOf: "false".utf8)
        default: out.append(contentsOf: "null".utf8)
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string: quotes, backslashes and control characters escaped, UTF-8 as is.
    static func writeString(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(0x22)
        for byte in bytes {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    /// The record as a string (tests, messages).
    public var text: String { String(decoding: serialized(), as: UTF8.self) }

    /// The JSON text of the member at `key` as ``serialized()`` writes it (a
    /// 64-bit integer exactly, a string quoted); nil when absent.
    public func jsonText(_ key: String) -> String? {
        guard let value = json_object_get(object, key) else { return nil }
        var out: [UInt8] = []
        Self.write(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
