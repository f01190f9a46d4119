import Glibc
import Testing
@testable import SposureKit

/// Paths reads a path as NSString's path methods did (which crash on some
/// paths in Linux's Foundation, `a/` among them, so the table is written out).
@Suite struct PathsTests {
    static let table: [(path: String, parent: String, last: String)] = [
        ("", "", ""), ("/", "/", "/"), ("//", "/", "/"), ("a", "", "a"), ("a/", "", "a"), ("/a", "/", "a"),
        ("/a/", "/", "a"), ("a/b", "a", "b"), ("a/b/", "a", "b"), ("/a/b", "/a", "b"), ("/a/b//", "/a", "b"),
        ("./x", ".", "x"), ("../x", "..", "x"), ("a//b", "a", "b"),
        ("/tmp/runs/test/hold.ndjson", "/tmp/runs/test", "hold.ndjson"), ("spiders.gif", "", "spiders.gif"),
        ("/x/ünïcödé.gif", "/x", "ünïcödé.gif"),
    ]

    @Test func parentIsTheFolderPart() {
        for row in Self.table { #expect(Paths.parent(row.path) == row.parent, "\(row.path)") }
    }

    @Test func lastComponentIsTheNamePart() {
        for row in Self.table { #expect(Paths.lastComponent(row.path) == row.last, "\(row.path)") }
    }

    @Test func absoluteIsUnderTheCurrentFolderUnlessRooted() {
        #expect(Paths.absolute("/x/y") == "/x/y")
        let here = String(cString: getcwd(nil, 0))
        #expect(Paths.absolute("a/b.gif") == here + "/a/b.gif")
    }
}
