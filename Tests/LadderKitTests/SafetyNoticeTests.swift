import Foundation
import LadderKit
import Testing

struct SafetyNoticeTests {
    @Test func isAcceptedOnce() throws {
        let folder = temporaryFolder() + "/data"
        #expect(!SafetyNotice.isAccepted(dataFolder: folder))
        try SafetyNotice.accept(dataFolder: folder, at: "2026-11-21T10:00:00Z")
        #expect(SafetyNotice.isAccepted(dataFolder: folder))
    }

    /// Issue 24, defect 1: the acceptance is the program's own file; a link
    /// planted there is replaced, and the file it named left as it was.
    @Test func acceptingReplacesALinkPlantedInTheDataFolder() throws {
        let root = temporaryFolder()
        try FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true)
        try "precious\n".write(toFile: root + "/victim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/data/notice-accepted", withDestinationPath: root + "/victim")
        #expect(!SafetyNotice.isAccepted(dataFolder: root + "/data"), "not read through the link")
        try SafetyNotice.accept(dataFolder: root + "/data", at: "2026-11-21T10:00:00Z")
        #expect(try String(contentsOfFile: root + "/victim", encoding: .utf8) == "precious\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/data/notice-accepted")) == nil, "the link itself was replaced")
        #expect(SafetyNotice.isAccepted(dataFolder: root + "/data"))
    }

    @Test func saysHowToStopAndWhenToSeekHelp() {
        let text = SafetyNotice.text
        #expect(text.contains("not a treatment"))
        #expect(text.contains("Let go at any moment"))
        #expect(text.contains("under 16"))
        #expect(text.contains("applied tension"))
        #expect(SafetyNotice.lines.allSatisfy { $0.count <= 72 })
    }
}
