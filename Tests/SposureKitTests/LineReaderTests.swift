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
    @Test func numbersLinesAndSkipsBlankOnes() throws {
        #expect(try readLines(Array("a\n\n  \nb\n".utf8)) == ["1:a", "4:b"])
    }

    @Test func acceptsCRLF() throws {
        #expect(try readLines(Array("a\r\nb\r\n".utf8)) == ["1:a", "2:b"])
    }

    @Test func readsALastLineWithoutNewline() throws {
        #expect(try readLines(Array("a\nlast".utf8)) == ["1:a", "2:last"])
    }

    @Test func reportsAnOverLongLineAndGoesOn() throws {
        let long = String(repeating: "x", count: 5000)
        #expect(try readLines(Array("a\n\(long)\nb\n".utf8), maxLineBytes: 100) == ["1:a", "2:too long 5000 xxxx", "3:b"])
    }

    @Test func reportsAnOverLongLastLineWithoutNewline() throws {
        let long = String(repeating: "y", count: 300_000)
        #expect(try readLines(Array("a\n\(long)".utf8), maxLineBytes: 1000) == ["1:a", "2:too long 300000 yyyy"])
    }

    @Test func readsLinesLongerThanItsFirstBuffer() throws {
        let long = String(repeating: "z", count: 200_000)
        #expect(try readLines(Array("\(long)\nb".utf8)) == ["1:\(long)", "2:b"])
    }

    @Test func readsNothingFromEmptyInput() throws {
        #expect(try readLines([]) == [])
    }
}
