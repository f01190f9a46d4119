// The credit on the status line, drawn into a file as a terminal would see it
// (issue 22). "Powered by GIPHY · by CREATOR", "Powered by KLIPY", nothing for
// a GIF from no API, and a hostile creator's escapes kept off the terminal:
// Tests/Fixtures/gif-play/the-status-line-credits-the-provider-of-the-gif-on-screen.

import Foundation
import Testing
import TestSupport

struct CreditCaptureTests {
    /// Issue 29 #9: the demo showed "Powered by SAMPLE". Its stream, as
    /// `gif-play samples` writes it, names the provider `local`, and its
    /// GIFs, fetched and played as the demo plays them, credit nobody.
    @Test func issue29_9_theDemosSampleGIFsCreditNobody() throws {
        try withTemporaryDirectory { folder in
            let samples = try StageProcess.run("gif-play", arguments: ["samples", "--out", folder.path + "/gifs"])
            #expect(samples.exitCode == 0, "\(samples)")
            #expect(samples.stdoutLines.count == 3 && samples.stdoutLines.allSatisfy { $0.hasPrefix(#"{"kind":"gif","provider":"local","id":""#) },
                    "\(samples.stdoutLines)")
            let fetched = try StageProcess.run("fetch-images", arguments: ["--allow-file", "--quiet", "--cache", folder.path + "/cache"],
                                               stdin: samples.stdout)
            #expect(fetched.exitCode == 0, "\(fetched)")
            let screen = folder.appendingPathComponent("screen.out").path
            let played = try StageProcess("gif-play", arguments: ["--renderer", "truecolor", "--tty", screen, "--clock", "virtual", "--hold", "always"],
                                          stdin: fetched.stdout).wait(timeout: 60)
            #expect(played.exitCode == 0, "\(played)")
            let texts = statusTexts(String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: screen))) ?? Data(), as: UTF8.self))
            #expect(texts.first == "exposure 0s · 1 GIF · spiders" && texts.contains("exposure 6s · 3 GIFs · spiders") && texts.last == "exposure 8s · 3 GIFs", "\(texts)")
            #expect(!texts.contains { $0.contains("Powered by") }, "\(texts)")
        }
    }
}
