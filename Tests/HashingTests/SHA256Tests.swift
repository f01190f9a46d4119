// SHA-256 from OpenSSL's libcrypto (issue 23: swift-crypto compiled BoringSSL
// for this one hash). Every `sha256` in every record must stay byte-identical:
// the FIPS 180-2 vectors, a digest fed in uneven pieces, and the hex form.

import Hashing
import Testing

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func matchesTheStandardsVectors(_ text: String, _ hex: String) {
        #expect(SHA256.hash(data: Array(text.utf8)).hexString == hex)
    }

    @Test func aMillionAsInUnevenPiecesIsTheStandardsDigest() {
        var hasher = SHA256()
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var offset = 0
        var step = 1
        piece.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
                step = step * 3 + 1
            }
        }
        #expect(hasher.finalize().hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func anEmptyUpdateChangesNothing() {
        var hasher = SHA256()
        hasher.update(bufferPointer: UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.update(data: Array("abc".utf8))
        #expect(hasher.finalize().bytes.count == 32)
        #expect(SHA256.hash(data: "abc".utf8).hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
