import FetchKit
import GIFEngine
import Testing

/// fetch-images keeps what gif-play decodes (issue 31): its signature check
/// and the engine's sniffer agree, byte for byte.
@Suite struct ImageSignatureTests {
    @Test(arguments: ["GIF89a", "GIF87a", "\u{FF}\u{D8}\u{FF}\u{DB}", "\u{89}PNG\r\n\u{1A}\n", "RIFF\u{10}\0\0\0WEBPVP8 ",
                      "RIFF\0\0\0\0WAVE", "<html>", "GIF8", "\u{FF}\u{D8}", ""])
    func theSignatureIsTheEnginesSniff(head: String) {
        let bytes = head.unicodeScalars.map { UInt8($0.value) }
        #expect(ImageSignature.mime(of: bytes) == ImageFormat.sniff(bytes)?.mime)
    }

    @Test(arguments: [("image/jpeg", "image/jpeg"), ("Image/JPG", "image/jpeg"), ("image/png; q=1", "image/png"), ("", nil)]
          as [(String, String?)])
    func aRecordsMimeIsReadAsOneType(field: String, type: String?) {
        #expect(ImageSignature.expected(field) == type)
    }
}
