import Foundation
import Testing
import TestSupport

/// `sposure`, the front door, run as a person runs it (without a terminal:
/// the tests' stdout and stderr are pipes).
@Suite struct SposureEndToEndTests {
    /// The folders of a fresh person in `folder`, no key, the built stages.
    static func environment(_ folder: URL, _ more: [String: String] = [:]) -> [String: String] {
        var env = ["SPOSURE_DATA": folder.path + "/data", "SPOSURE_CACHE": folder.path + "/cache",
                   "SPOSURE_CONFIG": folder.path + "/config", "HOME": folder.path,
                   "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"]
        for (key, value) in more { env[key] = value }
        return env
    }

    static let noKeys = ["GIPHY_API_KEY", "KLIPY_API_KEY"]

    @Test func withNoArgumentsIntoAPipeItIsOneStatusRecordThatSendsANewPersonToTheDemo() throws {
        try withTemporaryDirectory { folder in
            let result = try StageProcess.run("sposure", environment: Self.environment(folder), unsetEnvironment: Self.noKeys)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutLines.count == 1)
            let line = try #require(result.stdoutLines.first)
            #expect(line.hasPrefix(#"{"kind":"status","ladders":{}"#), "\(line)")
            #expect(line.contains(#""next":"sposure demo""#))
            #expect(line.contains(#""klipy":{"variable":"KLIPY_API_KEY","set":false"#), "\(line)")
        }
    }

    @Test func theTextSaysWhereYouAreAndTheCommandToTypeNext() throws {
        try withTemporaryDirectory { folder in
            let result = try StageProcess.run("sposure", arguments: ["--format", "text"],
                                              environment: Self.environment(folder, ["KLIPY_API_KEY": "k"]), unsetEnvironment: ["GIPHY_API_KEY"])
            #expect(result.status == 0, "\(result)")
            let text = result.stdoutLines.joined(separator: "\n")
            #expect(text.contains("Ladders       none started yet"))
            #expect(text.contains("KLIPY_API_KEY set: rounds use Klipy; 100 calls left of 100/day"), "\(text)")
            #expect(text.contains("Next          sposure play"), "\(text)")
        }
    }

    @Test func theDemoPlaysHeadlessFromTheToolsAlone() throws {
        try withTemporaryDirectory { folder in
            let result = try StageProcess.run("sposure", arguments: ["demo", "--headless"], environment: Self.environment(folder),
                                              unsetEnvironment: Self.noKeys)
            #expect(result.status == 0, "\(result)")
            let text = result.stdoutLines.joined(separator: "\n")
            #expect(text.contains("G A M E   O V E R") && text.contains("Points        105"), "\(text)")
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/data/history.ndjson"), "the demo keeps no history")
            // Issue 29 #9: the Game Over screen ends with the next command.
            #expect(Array(result.stdoutLines.suffix(4)) == [
                "",
                "  Next          sposure play, once a free key is set:",
                "                export GIPHY_API_KEY=your-key   (https://developers.giphy.com/dashboard/)",
                "                or export KLIPY_API_KEY=your-key   (https://klipy.com)",
            ], "\(text)")
        }
    }

    @Test func playWithoutAKeySaysWhereToGetOneAndOfTheDemo() throws {
        try withTemporaryDirectory { folder in
            let result = try StageProcess.run("sposure", arguments: ["play", "spiders"], environment: Self.environment(folder),
                                              unsetEnvironment: Self.noKeys)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("sposure play: GIPHY_API_KEY is not set, nor KLIPY_API_KEY."), "\(result.stderr)")
            #expect(result.stderr.contains("sposure demo plays offline"))
        }
    }

    @Test func playWithNothingToPlayAndNoTerminalIsAUsageError() throws {
        try withTemporaryDirectory { folder in
            let result = try StageProcess.run("sposure", arguments: ["play"], environment: Self.environment(folder, ["KLIPY_API_KEY": "k"]))
            #expect(result.status == 64)
            #expect(result.stderr.contains("give a query or --ladder NAME"), "\(result.stderr)")
        }
    }

    /// Issue 20: --ladder, --rung and --mix are one group (LadderChoice) in
    /// play, record and giphy-pages plan; its checks are made before any stage runs.
    @Test(arguments: [
        (["play", "--rung", "0"], "--rung must be at least 1."),
        (["record", "--ladder", "spiders", "--rung", "-1", "runs/today"], "--rung must be at least 1."),
        (["record", "--rung", "2", "runs/today", "spiders"], "--rung and --mix go with --ladder NAME, not queries"),
        (["record", "--mix", "runs/today", "spiders"], "--rung and --mix go with --ladder NAME, not queries"),
        (["record", "--provider", "tenor", "runs/today", "spiders"], "--provider must be giphy or klipy"),
    ])
    func theLadderChoiceIsCheckedAsAUsageError(_ arguments: [String], _ message: String) throws {
        try withTemporaryDirectory { folder in
            let result = try StageProcess.run("sposure", arguments: arguments, environment: Self.environment(folder, ["KLIPY_API_KEY": "k"]))
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/runs"), "nothing recorded")
        }
    }

    /// Issue 20: the aliases pass the shared history options on to score
    /// (HistoryOptions: one declaration, one help text).
    @Test func theAliasesPassTheHistoryOptionsOn() throws {
        try withTemporaryDirectory { folder in
            let env = Self.environment(folder)
            let file = folder.path + "/other.ndjson"
            let line = #"{"kind":"round","at":"2026-11-20T10:00:00Z","exposed_ms":4000,"points":40}"# + "\n" + "not json\n"
            try Data(line.utf8).write(to: URL(fileURLWithPath: file))
            let options = ["--history-file", file, "--now", "2026-11-21T10:00:00Z"]
            for quiet in [[], ["--quiet"]] {
                let alias = try StageProcess.run("sposure", arguments: ["history", "--format", "json"] + options + quiet, environment: env)
                let score = try StageProcess.run("score", arguments: ["history", "--format", "json"] + options + quiet, environment: env)
                #expect(alias.status == score.status && alias.stdout == score.stdout && alias.stderr == score.stderr, "\(alias)")
                #expect(alias.stdoutLines.first?.contains(#""rounds":1"#) == true, "\(alias)")
                #expect(alias.stderr.isEmpty == !quiet.isEmpty, "\(alias.stderr)")
            }
        }
    }

    @Test func theLadderAndHistoryAliasesAreScoresOwnCommands() throws {
        try withTemporaryDirectory { folder in
            let env = Self.environment(folder)
            let alias = try StageProcess.run("sposure", arguments: ["ladder", "spiders", "--format", "json"], environment: env)
            let score = try StageProcess.run("score", arguments: ["ladder", "spiders", "--format", "json"], environment: env)
            #expect(alias.status == 0 && alias.stdout == score.stdout && !alias.stdout.isEmpty, "\(alias)")
            let history = try StageProcess.run("sposure", arguments: ["history", "--export", "csv"], environment: env)
            let scoreHistory = try StageProcess.run("score", arguments: ["history", "--export", "csv"], environment: env)
            #expect(history.status == 0 && history.stdout == scoreHistory.stdout, "\(history)")
        }
    }

    @Test func doctorTriesTheKeyWithOneCallAndSaysTheTerminalIsMissing() throws {
        let fake = try FakeKlipy()
        defer { fake.stop() }
        fake.set("cat", count: 3)
        try withTemporaryDirectory { folder in
            let env = Self.environment(folder, ["KLIPY_API_KEY": fake.key, "KLIPY_API_URL": fake.baseURL])
            let result = try StageProcess.run("sposure", arguments: ["doctor", "--format", "text"], environment: env,
                                              unsetEnvironment: ["GIPHY_API_KEY"])
            let text = result.stdoutLines.joined(separator: "\n")
            // Without a terminal (as in CI) no round can be played here.
            #expect((result.status == 1) == text.contains("✗ terminal: no terminal"), "\(text)")
            #expect(text.contains("✓ giphy-pages 0."), "\(text)")
            #expect(text.contains("✓ libcurl"), "\(text)")
            #expect(text.contains("✓ KLIPY_API_KEY works (rounds use Klipy): one call"), "\(text)")
            #expect(text.contains("· GIPHY_API_KEY not set"), "\(text)")
            #expect(text.contains("✓ data \(folder.path)/data"), "\(text)")
            #expect(fake.calls.count == 1, "one call, the API cache bypassed")
            #expect(!text.contains(fake.key) && !result.stderr.contains(fake.key))
        }
    }

    @Test func doctorSaysARefusedKeyWithItsFix() throws {
        let fake = try FakeKlipy()
        defer { fake.stop() }
        fake.refuse(key: "notTheKey12345")
        try withTemporaryDirectory { folder in
            let env = Self.environment(folder, ["KLIPY_API_KEY": "notTheKey12345", "KLIPY_API_URL": fake.baseURL])
            let result = try StageProcess.run("sposure", arguments: ["doctor", "--format", "json"], environment: env,
                                              unsetEnvironment: ["GIPHY_API_KEY"])
            #expect(result.status == 1)
            let line = result.stdoutLines.first ?? ""
            #expect(line.hasPrefix(#"{"kind":"doctor","playable":false,"checks":[{"area":"tools""#), "\(line)")
            #expect(line.contains(#""text":"KLIPY_API_KEY set, but the call failed: "#), "\(line)")
            #expect(line.contains("check KLIPY_API_KEY"), "\(line)")
        }
    }

    /// Issue 28 (smaller): into a pipe, a history that could not be read
    /// exited 2 with no message, and the record said `rounds: 0` and `next:
    /// "sposure play"`, as if the person were new.
    @Test func anUnreadableHistoryIsSaidIntoAPipeAndNotTakenForANewPerson() throws {
        try withTemporaryDirectory { folder in
            let history = folder.path + "/data/history.ndjson"
            try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
            let result = try StageProcess.run("sposure", arguments: [], environment: Self.environment(folder, ["GIPHY_API_KEY": "k"]),
                                              unsetEnvironment: ["KLIPY_API_KEY"])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("sposure: ") && result.stderr.contains(history), "\(result.stderr)")
            let line = result.stdoutLines.first ?? ""
            #expect(line.contains(#""history_unreadable":true"#) && line.contains(#""next":"sposure doctor""#), "\(line)")
        }
    }

    /// Issue 28 (smaller): a key Giphy refused (401) got the fix "check the network".
    @Test func doctorSaysAKeyGiphyRefusedIsRefused() throws {
        let fake = try FakeGiphy()
        defer { fake.stop() }
        try withTemporaryDirectory { folder in
            let env = Self.environment(folder, ["GIPHY_API_KEY": "notTheKey12345", "GIPHY_API_URL": fake.baseURL])
            let result = try StageProcess.run("sposure", arguments: ["doctor", "--format", "json"], environment: env,
                                              unsetEnvironment: ["KLIPY_API_KEY"])
            let record = try #require(try JSONSerialization.jsonObject(with: Data((result.stdoutLines.first ?? "").utf8)) as? [String: Any])
            let checks = try #require(record["checks"] as? [[String: Any]])
            let check = try #require(checks.first { ($0["text"] as? String)?.hasPrefix("GIPHY_API_KEY set, but") == true }, "\(checks)")
            let fix = check["fix"] as? String ?? ""
            #expect(fix.hasPrefix("the API refused the key: check GIPHY_API_KEY ("), "\(fix)")
            #expect(!fix.contains("network"))
            #expect(!result.stdoutLines.joined().contains("notTheKey12345") && !result.stderr.contains("notTheKey12345"))
        }
    }

    @Test func everyCommandTeachesWithHelp() throws {
        for command in ["", "play", "demo", "ladder", "history", "doctor", "record", "replay"] {
            let result = try StageProcess.run("sposure", arguments: (command.isEmpty ? [] : [command]) + ["--help"])
            #expect(result.status == 0)
            #expect(result.stdoutLines.contains { $0.hasPrefix("USAGE: sposure") }, "\(command)")
        }
        let version = try StageProcess.run("sposure", arguments: ["--version"])
        let score = try StageProcess.run("score", arguments: ["--version"])
        #expect(version.stdoutLines == score.stdoutLines)
    }
}
