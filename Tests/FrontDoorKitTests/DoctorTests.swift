import FrontDoorKit
import Testing

/// `sposure doctor` for a person.
@Suite struct DoctorTests {
    /// What a doctor finds on a terminal with one key: 37 lines before.
    let checks: [DoctorCheck] = {
        var checks = ["giphy-pages", "fetch-images", "gif-play", "score"].map {
            DoctorCheck("tools", .ok, "\($0) 0.7.0  /home/me/.local/bin/\($0)")
        }
        checks += ["libcurl.so.4", "libgif.so.7", "libjansson.so.4", "libcrypto.so.3"].map {
            DoctorCheck("libraries", .ok, "\($0.split(separator: ".")[0])  /usr/lib/x86_64-linux-gnu/\($0)")
        }
        checks += [
            DoctorCheck("keys", .info, "GIPHY_API_KEY not set (Giphy)", fix: "free at https://developers.giphy.com/dashboard/; export GIPHY_API_KEY=your-key"),
            DoctorCheck("keys", .fail, "KLIPY_API_KEY refused (401): a live round cannot list GIFs", fix: "check the key at https://klipy.com"),
            DoctorCheck("folders", .ok, "data /home/me/.local/share/sposure: 12 KB in 3 files"),
            DoctorCheck("folders", .ok, "cache /home/me/.cache/sposure: 48 MB in 210 files"),
            DoctorCheck("folders", .ok, "config /home/me/.config/sposure: not made yet"),
            DoctorCheck("folders", .ok, "history /home/me/.local/share/sposure/history.ndjson: readable"),
        ]
        checks += (1...9).map { DoctorCheck("terminal", .info, "answer \($0)") }
        return checks
    }()

    /// Issue 29 #9: `sposure doctor` was 37 lines and scrolled out of a
    /// 30-row window, its problems with it.
    @Test func issue29_9_theProblemsComeFirstAndTheRestFitsA30RowWindow() {
        let lines = Doctor.lines(checks, color: false, width: 100)
        #expect(Array(lines.prefix(12)) == [
            "1 problem to fix before a live round:",
            "  ✗ keys: KLIPY_API_KEY refused (401): a live round cannot list GIFs",
            "      → check the key at https://klipy.com",
            "",
            "Tools       ✓ giphy-pages 0.7.0, fetch-images 0.7.0, gif-play 0.7.0, score 0.7.0 (in",
            "              /home/me/.local/bin)",
            "Libraries   ✓ libcurl, libgif, libjansson, libcrypto (in /usr/lib/x86_64-linux-gnu)",
            "Keys        · GIPHY_API_KEY not set (Giphy)",
            "                → free at https://developers.giphy.com/dashboard/; export GIPHY_API_KEY=your-key",
            "Folders     ✓ data /home/me/.local/share/sposure: 12 KB in 3 files",
            "            ✓ cache /home/me/.cache/sposure: 48 MB in 210 files",
            "            ✓ config /home/me/.config/sposure: not made yet",
        ])
        #expect(Array(lines.suffix(4)) == [
            "            · answer 8",
            "            · answer 9",
            "",
            "1 problem to fix before a live round (sposure demo plays offline meanwhile)",
        ])
        #expect(lines.count <= 30, "\(lines.count) lines")
    }

    @Test func withoutProblemsItSaysARoundCanBePlayed() {
        let lines = Doctor.lines(checks.filter { $0.mark != .fail }, color: false)
        #expect(lines.first == "Tools       ✓ giphy-pages 0.7.0, fetch-images 0.7.0, gif-play 0.7.0, score 0.7.0 (in /home/me/.local/bin)")
        #expect(lines.last == "A round can be played: sposure play")
    }
}
