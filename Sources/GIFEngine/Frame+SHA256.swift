import Crypto

extension Frame {
    /// The SHA-256 of ``rgba``, as 64 lowercase hex digits.
    public var sha256: String {
        SHA256.hash(data: rgba).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }
}
