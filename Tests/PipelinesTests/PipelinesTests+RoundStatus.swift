import Foundation
import Testing
import TestSupport

/// Issue 16 #1: the scripts judged a round by `pipefail`, so one GIF that could
/// not be downloaded (fetch-images' exit 1: some records became error records)
/// failed a round that was played and scored, and `record` then printed
/// neither the score nor where it had saved. Each stage's status is judged now:
/// a GIF not found, or none, recorded and replayed from each stage, are cases
/// in Tests/Fixtures/sposure/record-a-round-* and replay-from-*-not-found.
extension PipelinesTests {
    /// A fake Klipy whose "spiders" list holds `count` items, their media served.
    static func klipy(count: Int) throws -> FakeKlipy {
        let fake = try FakeKlipy()
        fake.serveMedia(twoFrameGIF(looping: true))
        fake.set("spiders", items: (0..<count).map { FakeKlipy.generated("spiders", $0).without("sm") }, count: count)
        return fake
    }

    /// A folder of stages where fetch-images is a stand-in running `body`
    /// (`$REAL` is the folder of the built stages). `sposure` is linked in
    /// too: the scripts find it in $SPOSURE_BIN, which a build made with
    /// --scratch-path needs (pipelines/lib.sh looks in ./.build only after).
    func stages(withFetchImages body: String, in folder: URL) throws -> String {
        let built = try StageProcess.executableURL(named: "gif-play").deletingLastPathComponent().path
        let bin = folder.appendingPathComponent("bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for tool in ["gif-play", "score", "giphy-pages", "sposure"] {
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: built + "/" + tool)
        }
        try Data("#!/bin/bash\nREAL='\(built)'\n\(body)\n".utf8).write(to: URL(fileURLWithPath: bin + "/fetch-images"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/fetch-images")
        return bin
    }

    @Test(arguments: [
        (#""$REAL/fetch-images" --allow-file "$@"; exit 2"#, "fetch-images failed (exit 2; its message is above)"),
        (#""$REAL/fetch-images" --allow-file "$@"; kill -KILL $$"#, "fetch-images was killed by SIGKILL"),
    ])
    func aStageThatFailsFatallyFailsTheRoundAndSaysWhich(_ body: String, _ reason: String) throws {
        try withTemporaryDirectory { folder in
            let run = try offlineRecording(in: folder, hold: "script:hold.ndjson")
            let saved = try String(contentsOfFile: run + "/score.json", encoding: .utf8)
            let bin = try stages(withFetchImages: body, in: folder)
            let replay = try script("replay", [run, "--from", "fetch"], environment: ["SPOSURE_CACHE": folder.path + "/cache2"], stages: bin)
            #expect(replay.status == 1)
            #expect(replay.err.hasSuffix("sposure replay: the round could not be played or scored: \(reason)\n"), "\(replay.err)")
            #expect(!replay.err.contains("fetch-images exit 1"))
            #expect(replay.out == saved, "what was played is still scored")
        }
    }
}

/// Issue 23: sposure owns the wiring; a SIGTERM sent to it alone (kill PID,
/// not the terminal's Ctrl-C, which reaches every stage itself) is passed on
/// to the stages, and the round ends as an interrupted one.
extension PipelinesTests {
    @Test func aSignalSentToSposureAloneReachesTheStages() throws {
        try withTemporaryDirectory { folder in
            let run = try offlineRecording(in: folder, hold: "script:hold.ndjson")
            let started = folder.path + "/started", signalled = folder.path + "/signalled"
            let bin = try stages(withFetchImages: """
                trap 'echo TERM > "\(signalled)"; kill $! 2>/dev/null; exit 143' TERM
                touch '\(started)'; sleep 60 & wait $!
                """, in: folder)
            let sposure = try StageProcess("sposure", arguments: ["replay", run, "--from", "fetch"],
                                           environment: ["SPOSURE_BIN": bin, "SPOSURE_CACHE": folder.path + "/cache2"])
            while !FileManager.default.fileExists(atPath: started) { usleep(10_000) }
            sposure.send(signal: SIGTERM)
            let result = sposure.wait()
            #expect(result.status == 143, "\(result)")
            #expect((try? String(contentsOfFile: signalled, encoding: .utf8)) == "TERM\n", "the stage got the signal")
            // (score may say it found no round: gif-play may not have begun one yet)
            #expect(!result.stderr.contains("could not be played"), "an interruption is no failure: \(result.stderr)")
        }
    }
}
