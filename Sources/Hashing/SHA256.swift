import CCrypto

/// A running SHA-256, from OpenSSL's libcrypto (the EVP interface, which
/// picks the processor's SHA extensions or AVX2 at run time).
///
/// A value with one owner: copies share the running state, so keep one
/// `var` and feed it (`update`), then read it once (`finalize`).
public struct SHA256 {
    private final class Context {
        let pointer: OpaquePointer

        init() {
            // EVP_MD_CTX_new fails only without memory, where nothing else goes on either.
            guard let pointer = EVP_MD_CTX_new() else { fatalError("SHA256: out of memory") }
            self.pointer = pointer
            EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
        }

        deinit { EVP_MD_CTX_free(pointer) }
    }

    private let context = Context()

    /// A hash of nothing yet.
    public init() {}

    /// Adds `bytes` to what is hashed.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context.pointer, base, bytes.count)
    }

    /// Adds `bytes` to what is hashed.
    public mutating func update(data bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(bufferPointer: UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update(bufferPointer: $0) } }
    }

    /// The 32 bytes of the digest of everything added.
    public func finalize() -> SHA256Digest {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context.pointer, &bytes, &length)
        return SHA256Digest(bytes: bytes)
    }

    /// The digest of `bytes`.
    public static func hash(data bytes: some Sequence<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(data: bytes)
        return hasher.finalize()
    }
}

/// A SHA-256 digest: 32 bytes.
public struct SHA256Digest: Sendable, Equatable, Sequence {
    /// The bytes, most significant first.
    public let bytes: [UInt8]

    /// Iterates the bytes.
    public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

    /// The 64 lowercase hex digits.
    public var hexString: String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { hex in
                for (index, byte) in bytes.enumerated() {
                    out[index * 2] = hex[Int(byte >> 4)]
                    out[index * 2 + 1] = hex[Int(byte & 15)]
                }
            }
            return bytes.count * 2
        }
    }
}
