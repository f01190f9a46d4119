import Hashing

extension Frame {
    /// The SHA-256 of ``rgba``, as 64 lowercase hex digits.
    public var sha256: String { SHA256.hash(data: rgba).hexString }
}
