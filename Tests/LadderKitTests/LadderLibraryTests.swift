import Foundation
import LadderKit
import Testing

func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "ladder-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

struct LadderLibraryTests {
    @Test func findsTheBuiltIn() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        let (ladder, source) = try library.load("spiders")
        #expect(ladder.rungs.first?.queries == ["cartoon spider"])
        #expect(source == .builtIn)
    }

    @Test func aCopyOverridesTheBuiltIn() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        let path = try library.copy("spiders")
        #expect(path == library.folder + "/spiders.json")
        #expect(throws: LadderLibrary.CopyError.self) { try library.copy("spiders") }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"cartoon spider\"", with: "\"my drawing\"").write(toFile: path, atomically: true, encoding: .utf8)
        let (ladder, source) = try library.load("spiders")
        #expect(ladder.rungs.first?.queries == ["my drawing"])
        #expect(source == .file(path))
    }

    @Test func aBadCopyIsAnErrorNotTheBuiltIn() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        let path = try library.copy("dogs")
        try "{\"name\": \"dogs\"".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: LadderError.self) { try library.load("dogs") }
    }

    /// A broken link where a copy would be is the person's copy, and says
    /// so; it was taken for no copy ("no such ladder … known: …, mine").
    @Test func aBrokenLinkIsACopyThatCannotBeRead() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        try FileManager.default.createDirectory(atPath: library.folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: library.path(of: "spiders"), withDestinationPath: library.folder + "/gone.json")
        #expect(library.hasOwnCopy("spiders"))
        do {
            _ = try library.load("spiders")
            Issue.record("the built-in was loaded in place of the broken copy")
        } catch {
            #expect(error.description == "\(library.path(of: "spiders")): cannot be read: No such file or directory (a link to nothing)")
        }
    }

    @Test func anUnknownLadder() {
        let library = LadderLibrary(configFolder: "/nonexistent")
        do {
            _ = try library.load("wasps")
            Issue.record("loaded")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/ladders/wasps.json: no such ladder"))
        }
        // A name that cannot be one (from a hostile stream, say) is named once, escapes shown.
        do {
            _ = try library.load("Bad\u{1B}[2J")
            Issue.record("loaded")
        } catch {
            #expect(error.description.hasPrefix("ladder Bad\\u{1b}[2J: a ladder's name is lower-case letters, digits, - or _ (known: spiders,"),
                    "\(error.description)")
        }
    }

    @Test func listsOwnLaddersAfterTheBuiltIns() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        try FileManager.default.createDirectory(atPath: library.folder, withIntermediateDirectories: true)
        try ladderJSON(name: "moths").write(toFile: library.folder + "/moths.json", atomically: true, encoding: .utf8)
        #expect(library.names() == BuiltInLadders.names + ["moths"])
        #expect(try library.load("moths").ladder.name == "moths")
    }
}

struct LadderLibraryAvoidTests {
    @Test func aCopyIsTheBuiltInFileByteForByte() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        let path = try library.copy("spiders")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == BuiltInLadders.text("spiders"))
    }

    @Test func avoidMakesTheCopyAddsTheWordOnceAndLeavesTheBuiltInAlone() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        let before = BuiltInLadders.text("clowns")
        let first = try library.avoid("Ronald's Friend", in: "clowns")
        #expect(first.path == library.path(of: "clowns") && first.madeCopy && first.added)
        let (ladder, source) = try library.load("clowns")
        #expect(source == .file(first.path))
        #expect(ladder.avoid.last == "Ronald's Friend" && ladder.avoid.first == "pennywise")
        // The rest of the ladder is as it was, in the built-ins' layout.
        let builtIn = try LadderFile.parse(try #require(before), file: "built-in clowns")
        #expect(ladder.rungs == builtIn.rungs && ladder.title == builtIn.title && ladder.rules == builtIn.rules)
        let text = try String(contentsOfFile: first.path, encoding: .utf8)
        #expect(text.contains("\n  \"rungs\": [\n    {\"query\":\"cartoon clown\",\"suds\":5,\"still\":true,\"by_provider\":{\"commons\":\"clown illustration\"}},\n"), "\(text)")
        #expect(text.contains("\"Ronald's Friend\"\n  ],"))
        let again = try library.avoid("ronalds friend", in: "clowns")
        #expect(again.path == first.path && !again.madeCopy && !again.added)
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == text)
        #expect(BuiltInLadders.text("clowns") == before)
    }

    @Test func aLadderWithoutAListGetsOneAndABrokenCopyIsNotTouched() throws {
        let library = LadderLibrary(configFolder: temporaryFolder())
        try FileManager.default.createDirectory(atPath: library.folder, withIntermediateDirectories: true)
        try ladderJSON(name: "moths").write(toFile: library.path(of: "moths"), atomically: true, encoding: .utf8)
        _ = try library.avoid("mothman", in: "moths")
        #expect(try library.load("moths").ladder.avoid == ["mothman"])
        let broken = "{\"name\": \"moths\""
        try broken.write(toFile: library.path(of: "moths"), atomically: true, encoding: .utf8)
        #expect(throws: LadderLibrary.CopyError.self) { try library.avoid("moth man", in: "moths") }
        #expect(try String(contentsOfFile: library.path(of: "moths"), encoding: .utf8) == broken)
        #expect(throws: LadderLibrary.CopyError.self) { try library.avoid("x", in: "no-such-ladder") }
    }
}
