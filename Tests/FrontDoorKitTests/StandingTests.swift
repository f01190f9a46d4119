import Foundation
import FrontDoorKit
import HistoryKit
import LadderKit
import RecordKit
import ScoreKit
import SposureKit
import Testing
import TestSupport

/// `sposure` with no arguments: where a person stands.
@Suite struct StandingTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    func standing(_ entries: [HistoryEntry], environment: [String: String] = [:]) throws -> Standing {
        try withTemporaryDirectory { folder in
            let file = HistoryFile(path: folder.path + "/data/history.ndjson", owner: .program)
            for entry in entries { try file.append(entry) }
            var env = ["SPOSURE_DATA": folder.path + "/data", "HOME": folder.path]
            for (key, value) in environment { env[key] = value }
            return Standing(now: now, environment: env, library: LadderLibrary(configFolder: folder.path + "/config"), history: file)
        }
    }

    func round(_ at: String, ladder: String = "spiders", rung: Int, after: Int) -> HistoryEntry {
        HistoryEntry(at: at, exposedMs: 61_000, holds: 1, ladder: LadderTag(ladder: ladder, rung: rung, rungSuds: rung * 10),
                     ratings: RoundRatings(sudsBefore: 6, peak: 7, sudsAfter: after), reason: "released")
    }

    /// Issue 31: without a key, the live game plays Wikimedia Commons.
    @Test func aNewPersonWithoutAKeyPlaysWikimediaCommons() throws {
        let standing = try standing([])
        #expect(standing.ladders.isEmpty)
        #expect(standing.provider == .commons)
        #expect(standing.record().string("next") == "sposure play")
        #expect(standing.keys.map(\.provider) == [.giphy, .klipy])
    }

    @Test func aKeySetWithNoLadderPlayedChoosesAFear() throws {
        let standing = try standing([], environment: ["KLIPY_API_KEY": "k"])
        #expect(standing.provider?.rawValue == "klipy")
        #expect(standing.nextCommand == "sposure play")
        #expect(standing.keys.first { $0.provider.rawValue == "klipy" }?.callsLeft == 100)
    }

    @Test func theLadderPlayedLastIsInProgressWithItsRungQueryAndDistress() throws {
        let standing = try standing([
            round("2026-11-10T10:00:00Z", ladder: "needles", rung: 1, after: 2),
            round("2026-11-17T10:00:00Z", rung: 1, after: 3),
            round("2026-11-18T08:00:00Z", rung: 1, after: 4),
        ], environment: ["GIPHY_API_KEY": "g"])
        #expect(standing.ladders.map(\.name) == ["spiders", "needles"])
        let spiders = try #require(standing.ladders.first)
        #expect(spiders.lastAfter == 4 && spiders.lastBefore == 6 && spiders.lastPeak == 7)
        #expect(spiders.rounds == 2)
        #expect(!spiders.query.isEmpty)
        #expect(standing.nextCommand == "sposure play --ladder spiders")
        #expect(standing.roundsToday == 1)
        #expect(standing.streakDays == 2)
        let record = standing.record()
        #expect(record.object("ladders")?.object("spiders")?.int("rounds") == 2)
        #expect(record.int("streak_days") == 2)
    }

    /// Issue 28 #3: a ladder name kept in the history (OSC 52, OSC 0 and 8,
    /// CSI 2J, C1 CSI, U+202E) and TERM and COLORTERM reached the terminal raw
    /// in "ladder …: played, but it cannot be loaded now" and the Terminal line.
    @Test func namesFromTheHistoryAndTheEnvironmentArePrintedVisibleSafe() throws {
        let hostile = "x\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;t\u{07}\u{1B}]8;;http://e\u{1B}\\\u{1B}[2J\u{9B}2J\u{202E}y"
        let standing = try standing([round("2026-11-18T08:00:00Z", ladder: hostile, rung: 1, after: 4)],
                                    environment: ["TERM": "xterm\u{1B}]0;pwned\u{07}", "COLORTERM": "truecolor\u{9B}2J"])
        let text = standing.lines(style: TextStyle(color: false)).joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { RemoteText.isTerminalControl($0) && $0 != "\n" }, "\(text)")
        #expect(text.contains("! ladder x\\u{1b}]52;c;cHduZWQ=\\u{7}"), "\(text)")
        #expect(text.contains("TERM=xterm\\u{1b}]0;pwned\\u{7}, COLORTERM=truecolor\\u{9b}2J"), "\(text)")
    }

    /// Issue 29 #9: on a terminal of 100 columns the Keys lines broke mid-word.
    @Test func issue29_9_theKeysLinesBreakAtSpacesUnderTheirColumn() throws {
        let standing = try standing([])
        let lines = standing.lines(style: TextStyle(color: false), width: 100)
        #expect(Array(lines[3...6]) == [
            "Keys          GIPHY_API_KEY not set (Giphy: free at https://developers.giphy.com/dashboard/ (create",
            "              an app, choose \"API\"))",
            "              KLIPY_API_KEY not set (Klipy: free at https://klipy.com (sign up as a developer and",
            "              make an API key; about 100 calls a day until the app is approved))",
        ])
        #expect(Array(lines.suffix(2)) == [
            "Next          sposure play   # choose a fear: Wikimedia Commons's pictures need no key (a Giphy or",
            "              Klipy key adds GIFs)",
        ])
        #expect(lines.allSatisfy { $0.count <= 100 })
    }
}
