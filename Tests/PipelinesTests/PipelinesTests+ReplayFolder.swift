import Foundation
import Testing
import TestSupport

/// Issue 16 #2: play.options named the hold script relative to the working
/// directory `record` ran in (`script:runs/test/hold.ndjson`), so a recording
/// replayed only from there; from anywhere else gif-play failed with a raw
/// Foundation error. The path is relative to the recording folder now.
extension PipelinesTests {
    @Test func aRecordingReplaysFromAnyWorkingDirectory() throws {
        let fake = try Self.klipy(count: 3)
        defer { fake.stop() }
        try withTemporaryDirectory { folder in
            let dir = folder.path, run = folder.path + "/run"
            try Self.writeHold(dir + "/hold.ndjson")
            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            // Recorded with relative paths, from the folder.
            let recorded = try script("record", ["--provider", "klipy", "--hold-script", "hold.ndjson", "--max-results", "3", "run", "spiders"],
                                      environment: Self.environment(fake, dir), directory: folder)
            #expect(recorded.status == 0, "\(recorded.err)")
            let options = try String(contentsOfFile: run + "/play.options", encoding: .utf8)
            #expect(options == "--renderer\nnone\n--clock\nvirtual\n--hold\nscript:hold.ndjson\n")
            let saved = try String(contentsOfFile: run + "/score.json", encoding: .utf8)
            #expect(saved.contains(#""exposed_ms":3000"#), "\(saved)")

            let fromElsewhere = try script("replay", [run], directory: elsewhere)
            #expect(fromElsewhere.status == 0, "\(fromElsewhere.err)")
            #expect(fromElsewhere.out == saved)
            let relative = try script("replay", ["../run"], directory: elsewhere)
            #expect(relative.status == 0, "\(relative.err)")
            #expect(relative.out == saved)
            let fromRoot = try script("replay", [run, "--from", "fetch"], environment: Self.environment(fake, dir),
                                      directory: URL(fileURLWithPath: "/"))
            #expect(fromRoot.status == 0, "\(fromRoot.err)")
            #expect(fromRoot.out == saved)
        }
    }

    // A recording of the older pipelines/record (the hold script named from where it ran, always
    // copied to DIR/hold.ndjson): Tests/Fixtures/sposure/replay-of-an-older-recording-*.
}
