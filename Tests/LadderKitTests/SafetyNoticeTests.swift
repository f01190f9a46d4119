import LadderKit
import Testing

struct SafetyNoticeTests {
    @Test func isAcceptedOnce() throws {
        let folder = temporaryFolder() + "/data"
        #expect(!SafetyNotice.isAccepted(dataFolder: folder))
        try SafetyNotice.accept(dataFolder: folder, at: "2026-11-21T10:00:00Z")
        #expect(SafetyNotice.isAccepted(dataFolder: folder))
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
