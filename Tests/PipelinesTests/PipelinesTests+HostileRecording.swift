import Foundation
import Testing
import TestSupport

/// Issue 28 #1 and #2: a recording is a file someone may send, and a record
/// folder may hold the person's own files. Replay took `play.options` as it
/// was (`--events FILE` made it overwrite FILE), and record replaced what was
/// in its folder and wrote through links planted there. A hold script or
/// events outside the recording's folder, and record's refusals of a folder
/// holding a file of the person's or a link, are cases in
/// Tests/Fixtures/sposure/replay-refuses-* and record-never-*, and a record
/// that replaces an earlier recording is record-replaces-an-earlier-*.
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
}
