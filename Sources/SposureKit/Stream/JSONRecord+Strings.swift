import CJansson

extension JSONRecord {
    /// Rewrites every string of the record with `transform`, member names
    /// and strings in nested objects and arrays too, in place: members keep
    /// their order (a name rewritten to one already there replaces it).
    /// Returns whether anything changed. For masking a secret that a remote
    /// answer echoes, wherever and however escaped it was written.
    @discardableResult
    public func rewriteStrings(_ transform: (String) -> String) -> Bool {
        Self.rewriteStrings(in: object, transform)
    }

    private static func rewriteStrings(in value: UnsafeMutablePointer<json_t>, _ transform: (String) -> String) -> Bool {
        switch value.pointee.type {
        case JSON_OBJECT:
            var changed = false
            var renamed = false
            var members: [(name: [UInt8], value: UnsafeMutablePointer<json_t>)] = []
            var iter = json_object_iter(value)
            while let current = iter {
                if let key = json_object_iter_key(current), let member = json_object_iter_value(current) {
                    if rewriteStrings(in: member, transform) { changed = true }
                    let name = UnsafeRawBufferPointer(start: key, count: json_object_iter_key_len(current))
                    let text = String(decoding: name, as: UTF8.self)
                    let new = transform(text)
                    if new != text { renamed = true }
                    members.append((Array(new.utf8) + [0], member))  // NUL-ended: never an empty buffer
                }
                iter = json_object_iter_next(value, current)
            }
            guard renamed else { return changed }
            for member in members { json_incref(member.value) }
            json_object_clear(value)
            for member in members {
                member.name.withUnsafeBufferPointer { name in
                    name.withMemoryRebound(to: CChar.self) {
                        _ = json_object_setn_new_nocheck(value, $0.baseAddress!, $0.count - 1, member.value)
                    }
                }
            }
            return true
        case JSON_ARRAY:
            var changed = false
            for index in 0..<json_array_size(value) {
                if let member = json_array_get(value, index), rewriteStrings(in: member, transform) { changed = true }
            }
            return changed
        case JSON_STRING:
            let text = String(decoding: UnsafeRawBufferPointer(start: json_string_value(value), count: json_string_length(value)), as: UTF8.self)
            let new = transform(text)
            guard new != text else { return false }
            let bytes = Array(new.utf8) + [0]  // NUL-ended: never an empty buffer
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { _ = json_string_setn_nocheck(value, $0.baseAddress!, $0.count - 1) }
            }
            return true
        default:
            return false
        }
    }
}
