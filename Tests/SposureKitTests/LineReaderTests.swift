import Foundation
import Testing
@testable import SposureKit

/// Reads `input` through a real pipe and returns what the reader handed on.
func readLines(_ input: [UInt8], maxLineBytes: Int = 1 << 20) throws -> [String] {
    let pipe = Pipe()
    let writer = Thread {
        pipe.fileHandleForWriting.write(Data(input))
        try? pipe.fileHandleForWriting.close()
    }
    writer.start()
    var reader = LineReader(fd: pipe.fileHandleForReading.fileDescriptor, maxLineBytes: maxLineBytes)
    defer { reader.close() }
    var lines: [String] = []
    while try reader.readChunk({ line in
        switch line {
        case .text(let number, let bytes): lines.append("\(number):\(String(decoding: bytes, as: UTF8.self))")
        case .tooLong(let number, let prefix, let length): lines.append("\(number):too long \(length) \(String(decoding: prefix.prefix(4), as: UTF8.self))")
        }
    }) {}
    return lines
}

@Suite struct LineReaderTests {
    static let long = (x: String(repeating: "x", count: 5000), y: String(repeating: "y", count: 300_000),
                       z: String(repeating: "z", count: 200_000))

    /// Lines are numbered as read, blank ones skipped, CRLF and a last line
    /// without newline accepted; an over-long line is reported and the
    /// reading goes on; a line longer than the first buffer is read whole.
    @Test(arguments: [
        ("a\n\n  \nb\n", 1 << 20, ["1:a", "4:b"]),
        ("a\r\nb\r\n", 1 << 20, ["1:a", "2:b"]),
        ("a\nlast", 1 << 20, ["1:a", "2:last"]),
        ("a\n\(LineReaderTests.long.x)\nb\n", 100, ["1:a", "2:too long 5000 xxxx", "3:b"]),
        ("a\n\(LineReaderTests.long.y)", 1000, ["1:a", "2:too long 300000 yyyy"]),
        ("\(LineReaderTests.long.z)\nb", 1 << 20, ["1:\(LineReaderTests.long.z)", "2:b"]),
        ("", 1 << 20, []),
    ] as [(String, Int, [String])])
    func readsLines(_ input: String, _ maxLineBytes: Int, _ lines: [String]) throws {
        #expect(try readLines(Array(input.utf8), maxLineBytes: maxLineBytes) == lines)
    }
}
