import Foundation
@testable import PlayerKit
import Testing
import TestSupport

/// Issue 28 item 11: kitty frame files a terminal does not read (stalled, or
/// reading without deleting) piled up, 100 in one run, and stayed.
@Suite struct KittyFilesTests {
    func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func keepsAtMostFourFilesInFlightUntilTheTerminalDeletesOne() throws {
        try withTemporaryDirectory { folder in
            let files = KittyFiles(folder: folder.path)
            let written = (0..<6).map { files.write([UInt8]($0..<($0 + 3))) }
            #expect(written.map { $0 != nil } == [true, true, true, true, false, false])
            #expect(names(in: folder).count == 4)
            #expect(names(in: folder).allSatisfy { $0.hasPrefix("tty-graphics-protocol-sposure-") })
            #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(written[1]).path)) == Data([1, 2, 3]))
            // The terminal reads one and deletes it: room for one more.
            unlink(try #require(written[0]).path)
            #expect(files.inFlight == 3)
            let next = try #require(files.write([9]))
            #expect(next.path.hasPrefix(folder.path + "/tty-graphics-protocol-sposure-"))
            #expect(files.write([9]) == nil)
        }
    }

    @Test func removeAllDeletesEveryFileStillThere() throws {
        try withTemporaryDirectory { folder in
            let files = KittyFiles(folder: folder.path + "/")
            let kept = try #require(files.write([1]))
            _ = files.write([2])
            try Data([7]).write(to: folder.appendingPathComponent("tty-graphics-protocol-someone-else"))
            files.remove(kept)
            #expect(files.inFlight == 1)
            files.removeAll()
            #expect(files.inFlight == 0)
            #expect(names(in: folder) == ["tty-graphics-protocol-someone-else"], "only ours are deleted")
            #expect(files.write([3]) != nil, "the next round writes again")
        }
    }
}
