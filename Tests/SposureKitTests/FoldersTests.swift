import Foundation
import Testing
@testable import SposureKit

@Suite struct FoldersTests {
    private func scratch() -> String {
        let folder = NSTemporaryDirectory() + "sposure-folders-\(UUID().uuidString)"
        mkdir(folder, 0o755)
        return folder
    }

    @Test func makesAFolderAndItsParentsPrivate() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The process's umask applies (read, not set: tests run in parallel).
        let mask = try processUmask()
        #expect(try Folders.make(root + "/a/b/c") == true)
        for folder in ["/a", "/a/b", "/a/b/c"] {
            var info = stat()
            #expect(stat(root + folder, &info) == 0)
            #expect(info.st_mode & 0o7777 == 0o700 & ~mask, "\(folder)")
        }
        #expect(try Folders.make(root + "/a/b/c") == false)
        #expect(try Folders.make(root + "/a/b/c/") == false)
        #expect(try Folders.make(root + "/shared", mode: 0o755) == true)
        var info = stat()
        #expect(stat(root + "/shared", &info) == 0 && info.st_mode & 0o7777 == 0o755 & ~mask)
    }

    @Test func aFileInTheWayIsNotAFolder() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        FileManager.default.createFile(atPath: root + "/file", contents: Data("x".utf8))
        #expect(throws: FileError("create", path: root + "/file", code: ENOTDIR)) { try Folders.make(root + "/file") }
        #expect(throws: FileError("create", path: root + "/file", code: ENOTDIR)) { try Folders.make(root + "/file/below") }
    }

    @Test func aFolderThatCannotBeMadeSaysWhichWithItsErrno() throws {
        // sysfs refuses new folders even to root (EPERM; EROFS where it is
        // mounted read-only), as a read-only parent refuses others.
        var sys = stat()
        try #require(stat("/sys", &sys) == 0, "sysfs is mounted (else root would make the folder)")
        do {
            try Folders.make("/sys/sposure-test/below")
            Issue.record("a folder was made in /sys")
        } catch {
            #expect(error.doing == "create" && error.path == "/sys/sposure-test")
            #expect([EPERM, EROFS, EACCES].contains(error.code), "\(error)")
            #expect(error.description.hasPrefix("cannot create /sys/sposure-test: "))
        }
    }

    @Test func homeIsHOMEElseThePasswordDatabase() throws {
        #expect(Folders.home(["HOME": "/home/someone"]) == "/home/someone")
        let fromDatabase = Folders.home([:])
        let entry = getpwuid(getuid())
        #expect(fromDatabase == String(cString: try #require(entry?.pointee.pw_dir)), "the password database's, not the fallback")
        #expect(Folders.home(["HOME": ""]) == fromDatabase)
    }

    @Test func readAllReadsPastOneChunk() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        FileManager.default.createFile(atPath: root + "/data", contents: Data(bytes))
        let fd = open(root + "/data", O_RDONLY)
        defer { close(fd) }
        #expect(readAll(fd) == bytes)
        #expect(readAll(fd) == [])
        #expect(readAll(-1) == nil)
    }
}

/// This process's umask, from /proc/self/status (umask(2) can only read it by setting it).
private func processUmask() throws -> mode_t {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
}
