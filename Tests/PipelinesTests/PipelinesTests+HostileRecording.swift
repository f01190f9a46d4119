import Foundation
import Testing
import TestSupport

/// Issue 28 #1 and #2: a recording is a file someone may send, and a record
/// folder may hold the person's own files. Replay took `play.options` as it
/// was (`--events FILE` made it overwrite FILE), and record replaced what was
/// in its folder and wrote through links planted there. A hold script or
/// events outside the recording's folder, and record's refusals of a folder
/// holding a file of the person's or a link, are cases in
/// Tests/Fixtures/sposure/replay-refuses-* and record-never-*.
extension PipelinesTests {
    /// A file of the person's, outside any recording, and what it holds.
    static let victimText = "the person's own file\n"

    func victim(in folder: URL) throws -> String {
        let path = folder.path + "/victim.txt"
        try Data(Self.victimText.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [["--events", "VICTIM"], ["--tty", "VICTIM"], ["--renderer", "truecolor"], ["--clock", "real"],
                      ["--hold", "always"], ["--hold", "script:VICTIM"], ["--renderer"]])
    func aReplayRefusesOptionsRecordNeverWrites(_ added: [String]) throws {
        try withTemporaryDirectory { folder in
            let run = try offlineRecording(in: folder, hold: "script:hold.ndjson")
            let victim = try victim(in: folder)
            let options = try String(contentsOfFile: run + "/play.options", encoding: .utf8)
            let hostile = options + added.map { $0.replacingOccurrences(of: "VICTIM", with: victim) + "\n" }.joined()
            try Data(hostile.utf8).write(to: URL(fileURLWithPath: run + "/play.options"))
            for from in ["play", "fetch"] {
                let replay = try script("replay", [run, "--from", from])
                #expect(replay.status == 64, "\(added) --from \(from): \(replay.err)")
                #expect(replay.err.hasPrefix("sposure replay: \(run)/play.options: ") && replay.err.hasSuffix("so this recording is not replayed\n"),
                        "\(replay.err)")
                #expect(replay.err.split(separator: "\n").count == 1)
                #expect(replay.out.isEmpty)
                #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
            }
        }
    }

    /// Records headless from the fake into `run`; the result.
    func recordHeadless(_ fake: FakeKlipy, _ folder: URL, into run: String) throws -> (status: Int32, out: String, err: String) {
        try Self.writeHold(folder.path + "/hold.ndjson", upMs: 1500)
        return try script("record", ["--provider", "klipy", "--hold-script", folder.path + "/hold.ndjson", "--max-results", "3", run, "spiders"],
                          environment: Self.environment(fake, folder.path))
    }

    @Test func recordReplacesAnEarlierRecordingAndSaysSo() throws {
        let fake = try Self.klipy(count: 3, missing: [])
        defer { fake.stop() }
        try withTemporaryDirectory { folder in
            let run = folder.path + "/my run"
            let first = try recordHeadless(fake, folder, into: run)
            #expect(first.status == 0, "\(first.err)")
            #expect(first.err.contains("saved in \(run) (replay: sposure replay '\(run)')"), "\(first.err)")
            let saved = try String(contentsOfFile: run + "/score.json", encoding: .utf8)
            // Again into the same folder, with the hold script the recording holds.
            let again = try script("record", ["--provider", "klipy", "--hold-script", run + "/hold.ndjson", "--max-results", "3", run, "spiders"],
                                   environment: Self.environment(fake, folder.path))
            #expect(again.status == 0, "\(again.err)")
            #expect(again.err.contains("sposure record: \(run) held an earlier recording: replaced\n"), "\(again.err)")
            #expect(try String(contentsOfFile: run + "/score.json", encoding: .utf8) == saved)
            #expect(try String(contentsOfFile: run + "/hold.ndjson", encoding: .utf8) == "{\"t_ms\":0,\"down\":true}\n{\"t_ms\":1500,\"down\":false}\n")
        }
    }
}
