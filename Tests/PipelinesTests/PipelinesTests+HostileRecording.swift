import Foundation
import Testing
import TestSupport

/// Issue 28 #1 and #2: a recording is a file someone may send, and a record
/// folder may hold the person's own files. Replay took `play.options` as it
/// was (`--events FILE` made it overwrite FILE), and record replaced what was
/// in its folder and wrote through links planted there.
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

    @Test func aReplayRefusesAHoldScriptOutsideItsFolder() throws {
        try withTemporaryDirectory { folder in
            let run = try offlineRecording(in: folder, hold: "script:hold.ndjson")
            let outside = folder.path + "/outside.ndjson"
            try FileManager.default.moveItem(atPath: run + "/hold.ndjson", toPath: outside)
            // A link in the folder to a file outside it, and a path that climbs out.
            try FileManager.default.createSymbolicLink(atPath: run + "/hold.ndjson", withDestinationPath: outside)
            let linked = try script("replay", [run])
            #expect(linked.status == 64, "\(linked.err)")
            #expect(linked.err == "sposure replay: \(run)/play.options: the hold script hold.ndjson is outside the recording's folder, so this recording is not replayed\n")
            try Data("--renderer\nnone\n--clock\nvirtual\n--hold\nscript:../outside.ndjson\n".utf8).write(to: URL(fileURLWithPath: run + "/play.options"))
            let climbing = try script("replay", [run])
            #expect(climbing.status == 64, "\(climbing.err)")
            #expect(climbing.err.contains("the hold script ../outside.ndjson is outside the recording's folder"), "\(climbing.err)")
        }
    }

    @Test func aReplayRefusesARecordingFileThatLinksOutOfItsFolder() throws {
        try withTemporaryDirectory { folder in
            let run = try offlineRecording(in: folder, hold: "script:hold.ndjson")
            try FileManager.default.moveItem(atPath: run + "/events.ndjson", toPath: folder.path + "/events.ndjson")
            try FileManager.default.createSymbolicLink(atPath: run + "/events.ndjson", withDestinationPath: folder.path + "/events.ndjson")
            let replay = try script("replay", [run, "--from", "score"])
            #expect(replay.status == 64, "\(replay.err)")
            #expect(replay.err == "sposure replay: \(run)/events.ndjson is a link out of the recording's folder, so this recording is not replayed\n")
        }
    }

    /// Records headless from the fake into `run`; the result.
    func recordHeadless(_ fake: FakeKlipy, _ folder: URL, into run: String) throws -> (status: Int32, out: String, err: String) {
        try Self.writeHold(folder.path + "/hold.ndjson", upMs: 1500)
        return try script("record", ["--provider", "klipy", "--hold-script", folder.path + "/hold.ndjson", "--max-results", "3", run, "spiders"],
                          environment: Self.environment(fake, folder.path))
    }

    @Test func recordNeverReplacesAFileOfThePersons() throws {
        let fake = try Self.klipy(count: 3, missing: [])
        defer { fake.stop() }
        try withTemporaryDirectory { folder in
            let run = folder.path + "/run"
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
            // The person's own score.json: a name a recording uses, but no recording.
            try Data(Self.victimText.utf8).write(to: URL(fileURLWithPath: run + "/score.json"))
            let refused = try recordHeadless(fake, folder, into: run)
            #expect(refused.status == 64, "\(refused.err)")
            #expect(refused.err == "sposure record: \(run) holds what is not a recording (score.json), and a recording never replaces it: record into a new or empty folder\n")
            #expect(try String(contentsOfFile: run + "/score.json", encoding: .utf8) == Self.victimText)
            #expect(try FileManager.default.contentsOfDirectory(atPath: run) == ["score.json"])
            #expect(fake.calls.isEmpty, "refused before any call")
        }
    }

    @Test func recordNeverWritesThroughALinkInItsFolder() throws {
        let fake = try Self.klipy(count: 3, missing: [])
        defer { fake.stop() }
        try withTemporaryDirectory { folder in
            let run = folder.path + "/run"
            // An earlier recording, then a link planted among its files.
            let first = try recordHeadless(fake, folder, into: run)
            #expect(first.status == 0, "\(first.err)")
            let victim = try victim(in: folder)
            try FileManager.default.removeItem(atPath: run + "/events.ndjson")
            try FileManager.default.createSymbolicLink(atPath: run + "/events.ndjson", withDestinationPath: victim)
            let refused = try recordHeadless(fake, folder, into: run)
            #expect(refused.status == 64, "\(refused.err)")
            #expect(refused.err.contains("holds what is not a recording (events.ndjson (a link))"), "\(refused.err)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
        }
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
