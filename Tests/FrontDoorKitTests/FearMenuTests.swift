import Foundation
import FrontDoorKit
import Glibc
import Testing
import TestSupport

/// The first-run choice: one key a ladder.
@Suite struct FearMenuTests {
    @Test func eachKeyChoosesOneBuiltInLadder() {
        let menu = FearMenu()
        #expect(menu.choice(UInt8(ascii: "1")) == "spiders")
        #expect(menu.choice(UInt8(ascii: "0")) == "deep-water")
        #expect(menu.choice(UInt8(ascii: "x")) == nil)
    }

    @Test func theMenuNamesEveryLadderWithItsKey() {
        let text = FearMenu(source: "No key is set, none is needed.").text()
        #expect(text.contains("\r\n\r\nNo key is set, none is needed.\r\nA key chooses"))
        #expect(text.contains("1  spiders"))
        #expect(text.contains("0  deep-water"))
    }

    @Test func aKeyOnTheTerminalChoosesAndQChoosesNone() throws {
        for (typed, chosen) in [("3", "dogs" as String?), ("q", nil)] {
            let pty = try PseudoTerminalPair.open()
            defer { close(pty.master); close(pty.slave) }
            _ = typed.withCString { write(pty.master, $0, 1) }
            #expect(FearMenu().ask(terminal: pty.path) == chosen)
        }
    }
}
