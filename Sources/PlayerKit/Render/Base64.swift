/// Base64 (RFC 4648, with padding), the payload of the kitty and iTerm2 protocols.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` encoded.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { append($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `bytes` encoded to `out`.
    static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let count = bytes.count
        out.reserveCapacity(out.count + (count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(value >> 18)])
            out.append(alphabet[Int(value >> 12 & 63)])
            out.append(alphabet[Int(value >> 6 & 63)])
            out.append(alphabet[Int(value & 63)])
            index += 3
        }
        let left = count - index
        guard left > 0 else { return }
        let value = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
        out.append(alphabet[Int(value >> 18)])
        out.append(alphabet[Int(value >> 12 & 63)])
        out.append(left == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
    }
}
