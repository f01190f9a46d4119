import Foundation
import Testing
import TestSupport

/// The User-Agent `sposure doctor` sends Wikimedia Commons, which a case
/// folder's requests file cannot show. The doctor's checks against a fake
/// API (Klipy's key tried, a refused key and its fix, Commons with no key)
/// are cases in Tests/Fixtures/sposure/doctor-*, with sposure's other runs.
@Suite struct SposureEndToEndTests {
    /// Issue 31: the doctor's one call to Commons names the program and a contact.
    @Test func doctorNamesTheProgramAndAContactToWikimediaCommons() throws {
        let fake = try FakeCommons()
        defer { fake.stop() }
        fake.set("cat", FakeCommonsFile.photos("cat", count: 3))
        try withTemporaryDirectory { folder in
            let env = ["SPOSURE_DATA": folder.path + "/data", "SPOSURE_CACHE": folder.path + "/cache", "SPOSURE_CONFIG": folder.path + "/config",
                       "HOME": folder.path, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "COMMONS_API_URL": fake.apiURL]
            let result = try StageProcess.run("sposure", arguments: ["doctor", "--format", "text"], environment: env,
                                              unsetEnvironment: ["GIPHY_API_KEY", "KLIPY_API_KEY", "SPOSURE_CONTACT"])
            #expect(result.stdoutLines.joined().contains("✓ Wikimedia Commons (no key needed) works"), "\(result)")
            let agents = fake.calls.compactMap(\.userAgent)
            #expect(agents.count == 1 && agents.allSatisfy { $0.wholeMatch(of: #/sposure-giphy-pages/\d+\.\d+\.\d+ \(\+https://\S+\) libcurl/[\d.]+/#) != nil }, "\(agents)")
        }
    }
}
