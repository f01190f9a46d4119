import FoundationEssentials
import Glibc

/// A JSON value as a ladder file holds it, so the checks can name what they find.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case real(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .real(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    /// What it is, for messages (`a string`, `the number 2.5`).
    var described: String {
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
