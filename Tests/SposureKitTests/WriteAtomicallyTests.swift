// writeAtomically replaces a file whole (temporary file, rename); what it
// must not replace: the file a link names is written, not the link; a
// folder is refused; a device or a FIFO is written to, never renamed over
// (as root, `score history --plot /dev/stdout` put a file where the device
// node was).

import Foundation
import SposureKit
import Testing

@Suite struct WriteAtomicallyTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "write-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func replacesAFileWholeAndLeavesNoTemporaryFile() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try writeAtomically(Array("old".utf8), to: root + "/a.svg")
        try writeAtomically(Array("new".utf8), to: root + "/a.svg")
        #expect(try String(contentsOfFile: root + "/a.svg", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["a.svg"])
    }

    @Test func aLinkIsFollowedAndKept() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try "old".write(toFile: root + "/real/chart.svg", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/chart.svg", withDestinationPath: "real/chart.svg")
        try writeAtomically(Array("new".utf8), to: root + "/chart.svg")
        #expect(kind(root + "/chart.svg") == S_IFLNK)
        #expect(try String(contentsOfFile: root + "/real/chart.svg", encoding: .utf8) == "new")

        try FileManager.default.createSymbolicLink(atPath: root + "/dangling.svg", withDestinationPath: "nowhere/x.svg")
        #expect(throws: FileWriteError("write", path: root + "/dangling.svg", code: ENOENT, reason: "a link to nothing")) {
            try writeAtomically(Array("x".utf8), to: root + "/dangling.svg")
        }
    }

    @Test func aFolderIsRefusedAndADeviceOrFIFOWrittenToInPlace() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: FileWriteError("write", path: root, code: EISDIR, reason: "is a folder")) {
            try writeAtomically(Array("x".utf8), to: root)
        }
        try writeAtomically(Array("into the void".utf8), to: "/dev/null")
        #expect(kind("/dev/null") == S_IFCHR, "the device node is still there")

        let fifo = root + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody reads it: refused at once, not a hang.
        #expect(throws: FileWriteError("write", path: fifo, code: ENXIO)) { try writeAtomically(Array("x".utf8), to: fifo) }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try writeAtomically(Array("svg".utf8), to: fifo)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &buffer, 16) == 3)
        #expect(Array(buffer.prefix(3)) == Array("svg".utf8))
        #expect(kind(fifo) == S_IFIFO)
    }
}
