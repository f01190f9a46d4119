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

    /// Issue "Hostile input, third pass", item 9: at 40×10 the notice was
    /// cut off (the "not a treatment" lines hidden) while any key accepted
    /// it. It is wrapped to the width and paged to the height, every word
    /// kept, and every page but the last says a key shows more.
    @Test func aSmallScreenGetsTheWholeNoticeWrappedInPages() {
        for (columns, rows) in [(40, 10), (30, 8), (12, 3), (80, 24), (200, 60)] {
            let pages = SafetyNotice.pages(columns: columns, rows: rows)
            #expect(pages.allSatisfy { $0.count <= rows }, "\(columns)×\(rows)")
            #expect(pages.allSatisfy { $0.allSatisfy { $0.count <= columns } }, "\(columns)×\(rows): \(pages)")
            #expect(pages.dropLast().allSatisfy { $0.last == String(SafetyNotice.more.prefix(columns)) }, "\(columns)×\(rows)")
            let shown = pages.enumerated().flatMap { $0.offset < pages.count - 1 ? Array($0.element.dropLast()) : $0.element }
            let words = { (lines: [String]) in lines.joined(separator: " ").split(separator: " ").joined() }
            #expect(words(shown) == words(SafetyNotice.lines), "\(columns)×\(rows): every character kept, in order")
        }
        #expect(SafetyNotice.pages(columns: 80, rows: 24) == [SafetyNotice.lines], "fits: one page as written")
        #expect(SafetyNotice.pages(columns: 40, rows: 10).count > 1)
        #expect(SafetyNotice.pages(columns: 40, rows: 10)[0].joined(separator: " ").contains("not a"))
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
