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
        try writeAtomically(Array("old".utf8), to: root + "/a.svg", as: .person)
        try writeAtomically(Array("new".utf8), to: root + "/a.svg", as: .person)
        #expect(try String(contentsOfFile: root + "/a.svg", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["a.svg"])
    }

    @Test func aLinkIsFollowedAndKept() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try "old".write(toFile: root + "/real/chart.svg", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/chart.svg", withDestinationPath: "real/chart.svg")
        try writeAtomically(Array("new".utf8), to: root + "/chart.svg", as: .person)
        #expect(kind(root + "/chart.svg") == S_IFLNK)
        #expect(try String(contentsOfFile: root + "/real/chart.svg", encoding: .utf8) == "new")

        try FileManager.default.createSymbolicLink(atPath: root + "/dangling.svg", withDestinationPath: "nowhere/x.svg")
        #expect(throws: FileError("write", path: root + "/dangling.svg", code: ENOENT, reason: "a link to nothing")) {
            try writeAtomically(Array("x".utf8), to: root + "/dangling.svg", as: .person)
        }
    }

    @Test func aFolderIsRefusedAndADeviceOrFIFOWrittenToInPlace() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: FileError("write", path: root, code: EISDIR, reason: "is a folder")) {
            try writeAtomically(Array("x".utf8), to: root, as: .person)
        }
        try writeAtomically(Array("into the void".utf8), to: "/dev/null", as: .person)
        #expect(kind("/dev/null") == S_IFCHR, "the device node is still there")

        let fifo = root + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody reads it: refused at once, not a hang.
        #expect(throws: FileError("write", path: fifo, code: ENXIO)) { try writeAtomically(Array("x".utf8), to: fifo, as: .person) }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try writeAtomically(Array("svg".utf8), to: fifo, as: .person)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &buffer, 16) == 3)
        #expect(Array(buffer.prefix(3)) == Array("svg".utf8))
        #expect(kind(fifo) == S_IFIFO)
    }
}

/// Issue 24, defect 1: with a cache file replaced by a link to /etc/passwd,
/// `giphy-pages list` run as root overwrote it with an API answer. The
/// program's own files have a link replaced, never written or read through,
/// and a FIFO or a device refused.
@Suite struct ProgramFileTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "owned-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func aLinkIsReplacedAndItsTargetLeftAsItWas() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "precious".write(toFile: root + "/victim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/budget.json", withDestinationPath: root + "/victim")
        try writeAtomically(Array("answer".utf8), to: root + "/budget.json", as: .program)
        #expect(try String(contentsOfFile: root + "/victim", encoding: .utf8) == "precious")
        #expect(kind(root + "/budget.json") == S_IFREG, "the link itself was replaced by a file")
        #expect(try String(contentsOfFile: root + "/budget.json", encoding: .utf8) == "answer")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["budget.json", "victim"])

        // A dangling link is replaced too, and nothing is made where it pointed.
        try FileManager.default.createSymbolicLink(atPath: root + "/id", withDestinationPath: root + "/made-through-link")
        try writeAtomically(Array("x".utf8), to: root + "/id", as: .program)
        #expect(kind(root + "/id") == S_IFREG)
        #expect(kind(root + "/made-through-link") == 0)
    }

    @Test func aFIFOADeviceAndAFolderAreRefusedAndLeftAsTheyAre() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fifo = root + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        #expect(throws: FileError("write", path: fifo, code: EINVAL, reason: "not a regular file (left as it is)")) {
            try writeAtomically(Array("x".utf8), to: fifo, as: .program)
        }
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(read(reader, &buffer, 4) <= 0, "nothing was written into the FIFO")
        #expect(kind(fifo) == S_IFIFO)
        #expect(throws: FileError("write", path: "/dev/null", code: EINVAL, reason: "not a regular file (left as it is)")) {
            try writeAtomically(Array("x".utf8), to: "/dev/null", as: .program)
        }
        #expect(kind("/dev/null") == S_IFCHR)
        #expect(throws: FileError("write", path: root, code: EISDIR, reason: "is a folder")) {
            try writeAtomically(Array("x".utf8), to: root, as: .program)
        }
    }

    @Test func aLinkPlantedAtTheTemporaryNameIsNeverWrittenThrough() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "precious".write(toFile: root + "/victim", atomically: true, encoding: .utf8)
        // Every temporary name this process could pick next.
        for count in 0..<64 {
            try FileManager.default.createSymbolicLink(atPath: root + "/cache.json.tmp-\(getpid())-\(count)", withDestinationPath: root + "/victim")
        }
        for _ in 0..<8 { try writeAtomically(Array("answer".utf8), to: root + "/cache.json", as: .program) }
        #expect(try String(contentsOfFile: root + "/victim", encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: root + "/cache.json", encoding: .utf8) == "answer")
    }

    @Test func theProgramsOwnFileIsNotReadThroughALinkAndAPersonsIs() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "secret".write(toFile: root + "/victim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/klipy-customer-id", withDestinationPath: root + "/victim")
        #expect(throws: FileReadError.self) { try readFile(root + "/klipy-customer-id", maxBytes: 256, owner: .program) }
        #expect(try readFile(root + "/klipy-customer-id", maxBytes: 256, owner: .person) == Array("secret".utf8))
    }

    @Test func anAppendToTheProgramsOwnLogRefusesALinkAndAPersonsLogFollowsIt() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "precious\n".write(toFile: root + "/victim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/history.ndjson", withDestinationPath: root + "/victim")
        #expect(throws: FileError.self) {
            try RecordLog(path: root + "/history.ndjson", owner: .program).append(lines: Array("{\"kind\":\"round\"}\n".utf8))
        }
        #expect(try String(contentsOfFile: root + "/victim", encoding: .utf8) == "precious\n")
        #expect(kind(root + "/history.ndjson") == S_IFLNK, "left as it is, for the person to look at")
        do {
            try RecordLog(path: root + "/history.ndjson", owner: .program).append(lines: Array("{}\n".utf8))
        } catch {
            #expect(error.description.contains("a link, and the program's own files are never opened through one"), "\(error)")
        }
        try RecordLog(path: root + "/history.ndjson", owner: .person).append(lines: Array("{\"kind\":\"round\"}\n".utf8))
        #expect(try String(contentsOfFile: root + "/victim", encoding: .utf8) == "precious\n{\"kind\":\"round\"}\n")
    }
}
