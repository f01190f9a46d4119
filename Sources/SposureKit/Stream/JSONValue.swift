import CJansson
import FoundationEssentials
import Glibc

/// A whole JSON document read by jansson into Swift values, for files a
/// person writes (a ladder), where every check names what it found. Records
/// on a stream stay ``JSONRecord``s.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case real(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why a document is not JSON, in jansson's words, and where.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var message: String
        /// Whether the text is JSON but gives one key twice in an object
        /// (jansson's error code, not its words).
        public var isDuplicateKey = false
        /// 1-based line and column where jansson gave up.
        public var line: Int
        public var column: Int
        public var description: String { message }
    }

    /// Parses a whole document (any JSON value at the top). A key given twice
    /// in one object is an error, not a silent choice of one of them.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        var error = json_error_t()
        let loaded: UnsafeMutablePointer<json_t>? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                json_loadb(chars.baseAddress, chars.count, size_t(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES), &error)
            }
        }
        guard let loaded else {
            let message = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let code = json_error_code(&error)
            throw ParseError(message: plainWords(message, code: code), isDuplicateKey: code == json_error_duplicate_key,
                             line: max(1, Int(error.line)), column: max(0, Int(error.column)))
        }
        defer { json_decref(loaded) }
        return JSONValue(loaded)
    }

    /// jansson's message in words for the person who wrote the file (its
    /// decoding flags mean nothing to them).
    static func plainWords(_ message: String, code: json_error_code) -> String {
        if code == json_error_duplicate_key, let near = message.firstRange(of: "near ") {
            return "a field given twice: " + message[near.upperBound...]
        }
        if code == json_error_null_character { return "\\u0000 (a NUL character) is not allowed in a string" }
        return message
    }

    /// The Swift value of a jansson value (borrowed, not released).
    init(_ value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_TRUE: self = .bool(true)
        case JSON_FALSE: self = .bool(false)
        case JSON_INTEGER: self = .int(Int(json_integer_value(value)))
        case JSON_REAL: self = .real(json_real_value(value))
        case JSON_STRING:
            let bytes = UnsafeRawBufferPointer(start: json_string_value(value), count: json_string_length(value))
            self = .string(String(decoding: bytes, as: UTF8.self))
        case JSON_ARRAY:
            self = .array((0..<json_array_size(value)).compactMap { index in json_array_get(value, index).map(JSONValue.init) })
        case JSON_OBJECT:
            var members: [String: JSONValue] = [:]
            var iter = json_object_iter(value)
            while let current = iter {
                if let key = json_object_iter_key(current), let member = json_object_iter_value(current) {
                    members[String(cString: key)] = JSONValue(member)
                }
                iter = json_object_iter_next(value, current)
            }
            self = .object(members)
        default: self = .null
        }
    }

    /// What it is, for messages (`"a string"`, `2.5`, `an array`).
    public var described: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .int(let value): return "\(value)"
        case .real(let value): return "\(value)"
        case .string(let value): return "\"\(value.prefix(40))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
