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
        let old = umask(0)
        defer { umask(old) }
        #expect(try Folders.make(root + "/a/b/c") == true)
        for folder in ["/a", "/a/b", "/a/b/c"] {
            var info = stat()
            #expect(stat(root + folder, &info) == 0)
            #expect(info.st_mode & 0o7777 == 0o700, "\(folder)")
        }
        #expect(try Folders.make(root + "/a/b/c") == false)
        #expect(try Folders.make(root + "/a/b/c/") == false)
        #expect(try Folders.make(root + "/shared", mode: 0o755) == true)
        var info = stat()
        #expect(stat(root + "/shared", &info) == 0 && info.st_mode & 0o7777 == 0o755)
    }

    @Test func aFileInTheWayIsNotAFolder() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        FileManager.default.createFile(atPath: root + "/file", contents: Data("x".utf8))
        #expect(throws: FileWriteError("create", path: root + "/file", code: ENOTDIR)) { try Folders.make(root + "/file") }
        #expect(throws: FileWriteError("create", path: root + "/file", code: ENOTDIR)) { try Folders.make(root + "/file/below") }
    }

    @Test func aReadOnlyParentSaysSoWithItsErrno() throws {
        guard getuid() != 0 else { return }  // root writes anywhere
        let root = scratch()
        defer { chmod(root, 0o755); try? FileManager.default.removeItem(atPath: root) }
        chmod(root, 0o555)
        #expect(throws: FileWriteError("create", path: root + "/x", code: EACCES)) { try Folders.make(root + "/x/y") }
    }

    @Test func homeIsHOMEElseThePasswordDatabase() {
        #expect(Folders.home(["HOME": "/home/someone"]) == "/home/someone")
        let fromDatabase = Folders.home([:])
        #expect(fromDatabase.hasPrefix("/"))
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
