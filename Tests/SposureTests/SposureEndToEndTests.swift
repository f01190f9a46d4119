import Foundation
import Testing
import TestSupport

/// `sposure doctor`, the front door's check, run as a person runs it (without
/// a terminal) against a fake API; sposure's runs that need no API are cases
/// in Tests/Fixtures/sposure/.
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

    /// Issue 31: with no key, rounds use Wikimedia Commons, and the doctor
    /// tries it with one real call, naming the program and a contact.
    @Test func doctorTriesWikimediaCommonsWithNoKeyInOneCall() throws {
        let fake = try FakeCommons()
        defer { fake.stop() }
        fake.set("cat", FakeCommonsFile.photos("cat", count: 3))
        try withTemporaryDirectory { folder in
            let env = Self.environment(folder, ["COMMONS_API_URL": fake.apiURL])
            let result = try StageProcess.run("sposure", arguments: ["doctor", "--format", "text"], environment: env,
                                              unsetEnvironment: Self.noKeys + ["SPOSURE_CONTACT"])
            let text = result.stdoutLines.joined(separator: "\n")
            #expect(text.contains("✓ Wikimedia Commons (no key needed) works (rounds use it; a Giphy or Klipy key adds GIFs): one call"), "\(text)")
            #expect(text.contains("· GIPHY_API_KEY not set") && !text.contains("no key is set"), "\(text)")
            let agents = fake.calls.compactMap(\.userAgent)
            #expect(agents.count == 1 && agents.allSatisfy { $0.wholeMatch(of: #/sposure-giphy-pages/\d+\.\d+\.\d+ \(\+https://\S+\) libcurl/[\d.]+/#) != nil }, "\(agents)")
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
}
