import Foundation
import Testing
import TestSupport

/// The scripts in pipelines/, run as a person runs them, on the built stages.
@Suite(.serialized) struct PipelinesTests {
    /// The checkout: two folders up from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `pipelines/NAME ARGS` with the built stages; returns exit status, stdout, stderr.
    /// `stages` replaces the folder of built stages (SPOSURE_BIN); `directory` is the working directory.
    func script(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:],
                stages: String? = nil, directory: URL? = nil) throws -> (status: Int32, out: String, err: String) {
        let built = try StageProcess.executableURL(named: "gif-play").deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.root.appendingPathComponent("pipelines/\(name)").path] + arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["SPOSURE_BIN"] = stages ?? built
        env.removeValue(forKey: "GIPHY_API_KEY")
        env.removeValue(forKey: "KLIPY_API_KEY")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return try process.runDrained()
    }

    /// The environment for `fake`, with the cache and data folders in `dir`.
    static func environment(_ fake: FakeKlipy, _ dir: String) -> [String: String] {
        ["KLIPY_API_KEY": fake.key, "KLIPY_API_URL": fake.baseURL,
         "SPOSURE_CACHE": dir + "/cache", "SPOSURE_DATA": dir + "/data",
         "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"]
    }

    /// Writes `{"t_ms":0,"down":true}` and a release at `upMs` to `path`.
    static func writeHold(_ path: String, upMs: Int = 4200) throws {
        try Data("{\"t_ms\":0,\"down\":true}\n{\"t_ms\":\(upMs),\"down\":false}\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A 4×4 GIF of two 0.5 s frames (red, then black) that a fake API serves.
    static func twoFrameGIF(looping: Bool) -> [UInt8] {
        var gif = GIFBuilder(width: 4, height: 4, colors: [[0, 0, 0], [255, 0, 0]])
        if looping { gif.loop(0) }
        for pixel: UInt8 in [1, 0] {
            gif.control(delay: 50)
            gif.image(width: 4, height: 4, pixels: [UInt8](repeating: pixel, count: 16))
        }
        gif.trailer()
        return gif.bytes
    }

    /// What pipelines/record saves, made offline from the sample GIFs in
    /// `folder/run`, with `hold` as play.options' hold script; returns the folder.
    func offlineRecording(in folder: URL, hold: String) throws -> String {
        let stages = try StageProcess.executableURL(named: "gif-play").deletingLastPathComponent().path
        let dir = folder.path + "/run"
        let record = """
            set -euo pipefail
            mkdir -p "$D"
            "$B/gif-play" samples --out "$D/gifs" > "$D/gifs.ndjson"
            "$B/fetch-images" --allow-file --quiet --cache "$D/cache" < "$D/gifs.ndjson" > "$D/images.ndjson"
            printf '%s\\n' '{"t_ms":500,"down":true}' '{"t_ms":4000,"down":false}' > "$D/hold.ndjson"
            printf '%s\\n' --renderer none --clock virtual --hold "$H" > "$D/play.options"
            "$B/gif-play" --renderer none --clock virtual --hold "script:$D/hold.ndjson" < "$D/images.ndjson" | tee "$D/events.ndjson" \\
              | "$B/score" --no-history --format json > "$D/score.json"
            """
        let maker = Process()
        maker.executableURL = URL(fileURLWithPath: "/bin/bash")
        maker.arguments = ["-c", record]
        maker.environment = ["B": stages, "D": dir, "H": hold, "PATH": "/usr/bin:/bin"]
        try maker.run()
        maker.waitUntilExit()
        #expect(maker.terminationStatus == 0)
        return dir
    }

    // A replay of a scripted recording, from play and from score, gives the identical score:
    // Tests/Fixtures/sposure/replay-*-of-a-scripted-recording-*.

    /// Each script is a wrapper of a sposure subcommand (issue 23: one
    /// wiring of the stages), whose help it gives.
    @Test(arguments: ["demo", "play", "carousel", "record", "replay"])
    func everyScriptExplainsItselfWithHelp(_ name: String) throws {
        let result = try script(name, ["--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("USAGE: sposure \(name == "carousel" ? "play" : name)"), "\(result.out)")
    }

    /// Issue 16 #12: the scripts answer --version with the tools' one version.
    @Test(arguments: ["demo", "play", "carousel", "record", "replay"])
    func everyScriptSaysTheToolsVersion(_ name: String) throws {
        let tools = try StageProcess("score", arguments: ["--version"]).wait(timeout: 30)
        let result = try script(name, ["--version"])
        #expect(result.status == 0)
        #expect(result.out == "\(name) \(tools.stdoutLines.first ?? "?")\n")
    }

    /// The five stages on a virtual clock with Klipy (issue 14): pipelines/record
    /// --provider klipy against a fake Klipy that serves the GIFs too, then a
    /// replay with no key at all gives the identical score.
    @Test func aKlipyRoundRecordsOnAVirtualClockAndReplaysWithoutAKey() throws {
        let fake = try FakeKlipy()
        defer { fake.stop() }
        fake.serveMedia(Self.twoFrameGIF(looping: true))
        fake.set("spiders", items: [FakeKlipyItem(id: 9_007_199_254_740_993).without("sm")], count: 6)
        try withTemporaryDirectory { folder in
            let dir = folder.path
            try Self.writeHold(dir + "/hold.ndjson", upMs: 4200)
            let environment = Self.environment(fake, dir)
            let recorded = try script("record", ["--provider", "klipy", "--hold-script", dir + "/hold.ndjson",
                                                 "--max-results", "6", dir + "/run", "spiders"], environment: environment)
            #expect(recorded.status == 0, "\(recorded.err)")
            #expect(!recorded.out.contains(fake.key) && !recorded.err.contains(fake.key))
            let pages = try String(contentsOfFile: dir + "/run/pages.ndjson", encoding: .utf8)
            #expect(pages.contains(#""provider":"klipy""#))
            let gifs = try String(contentsOfFile: dir + "/run/gifs.ndjson", encoding: .utf8)
            #expect(gifs.contains(#""id":"9007199254740993""#) && gifs.contains(#""rendition":"md""#), "\(gifs)")
            let saved = try String(contentsOfFile: dir + "/run/score.json", encoding: .utf8)
            #expect(saved.contains(#""gifs_shown":"#) && saved.contains(#""sections":{"spiders":"#), "\(saved)")
            #expect(saved.contains(#""errors":0"#), "\(saved)")
            #expect(saved.contains(#""exposed_ms":4200"#), "\(saved)")
            #expect(fake.calls.count == 1)

            let replay = try script("replay", [dir + "/run"])
            #expect(replay.status == 0, "\(replay.err)")
            #expect(replay.out == saved, "no key, the identical score")
        }
    }

    /// Issue 15: `record --ladder` plays the ladder's rung through all five
    /// stages (the records carry the ladder, score keeps it) and `replay`
    /// gives the identical score without a key.
    @Test func aLadderRoundRecordsItsRungAndReplaysIdentically() throws {
        let fake = try FakeKlipy()
        defer { fake.stop() }
        fake.serveMedia(Self.twoFrameGIF(looping: false))
        fake.set("house spider", count: 6)
        try withTemporaryDirectory { folder in
            let dir = folder.path
            try Self.writeHold(dir + "/hold.ndjson", upMs: 3000)
            let environment = Self.environment(fake, dir).merging(["XDG_CONFIG_HOME": dir + "/config"]) { $1 }
            let recorded = try script("record", ["--provider", "klipy", "--hold-script", dir + "/hold.ndjson", "--ladder", "spiders",
                                                 "--rung", "6", "--max-results", "6", dir + "/run"], environment: environment)
            #expect(recorded.status == 0, "\(recorded.err)")
            let pages = try String(contentsOfFile: dir + "/run/pages.ndjson", encoding: .utf8)
            #expect(pages.contains(#""query":"house spider""#) && pages.contains(#""ladder":"spiders","rung":6"#), "\(pages)")
            let events = try String(contentsOfFile: dir + "/run/events.ndjson", encoding: .utf8)
            #expect(events.contains(#""ladder":"spiders","rung":6"#), "\(events)")
            let saved = try String(contentsOfFile: dir + "/run/score.json", encoding: .utf8)
            #expect(saved.contains(#""ladder":{"#) && saved.contains(#""exposed_ms":3000"#), "\(saved)")

            let replay = try script("replay", [dir + "/run"], environment: ["SPOSURE_DATA": dir + "/data2", "XDG_CONFIG_HOME": dir + "/config"])
            #expect(replay.status == 0, "\(replay.err)")
            #expect(replay.out == saved, "no key, the identical score")
        }
    }

    /// Issue 22 through all five stages on a virtual clock: a ladder rung's
    /// results mix a Spider-Man GIF (avoided: never fetched) with real spiders,
    /// one of them again under another id (shown once, skipped after); score
    /// keeps what the round showed, and the next round on the rung opens with
    /// a GIF the first did not show.
    @Test func aLadderRoundAvoidsSkipsTheSameClipAndTheNextRoundOpensWithNewGIFs() throws {
        let fake = try FakeKlipy()
        defer { fake.stop() }
        fake.serveMedia(Self.twoFrameGIF(looping: false))
        let scenes = ClipSet.scenes(count: 3)
        let clip = ClipSet.Clip(scenes[0])
        let spider = FakeKlipyItem(id: 1_000_000_000_000_001, title: "Cute cartoon spider")
        let hero = FakeKlipyItem(id: 1_000_000_000_000_002, title: "Spider-Man swings in")
        let again = FakeKlipyItem(id: 1_000_000_000_000_003, title: "cute spider waving")
        let other = FakeKlipyItem(id: 1_000_000_000_000_004, title: "Spider in a web")
        let third = FakeKlipyItem(id: 1_000_000_000_000_005, title: "Tiny spider dancing")
        fake.serveMedia(clip.original(), for: spider.id)
        fake.serveMedia(ClipSet.original(scenes[1]), for: hero.id)
        fake.serveMedia(clip.copy(.identical), for: again.id)
        fake.serveMedia(ClipSet.original(scenes[1]), for: other.id)
        fake.serveMedia(ClipSet.original(scenes[2]), for: third.id)
        fake.set("cute cartoon spider", items: [spider, hero, again, other, third])
        try withTemporaryDirectory { folder in
            let dir = folder.path
            // Long enough for two GIFs, not three. (On a virtual clock gif-play
            // prefers unseen GIFs only when told: --seen-rounds, a person's default.)
            try Self.writeHold(dir + "/hold.ndjson", upMs: 700)
            let environment = Self.environment(fake, dir).merging(["XDG_CONFIG_HOME": dir + "/config"]) { $1 }
            let bin = try StageProcess.executableURL(named: "gif-play").deletingLastPathComponent().path
            // The five stages over real pipes, as a person types them, history on (score keeps seen.ndjson).
            func record(_ run: String) throws -> [String] {
                try FileManager.default.createDirectory(atPath: dir + "/" + run, withIntermediateDirectories: true)
                let line = "'\(bin)/giphy-pages' plan --provider klipy --ladder spiders --rung 2 --max-results 5"
                    + " | '\(bin)/giphy-pages' list | tee '\(dir)/\(run)/gifs.ndjson' | '\(bin)/fetch-images' --quiet"
                    + " | '\(bin)/gif-play' --renderer none --clock virtual --hold 'script:\(dir)/hold.ndjson' --accept-notice"
                    + " --ratings off --seen-rounds 5 --events '\(dir)/\(run)/events.ndjson'"
                    + " | '\(bin)/score' --format json --at 2026-11-2\(run == "first" ? 1 : 2)T10:00:00Z > '\(dir)/\(run)/score.json'"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments = ["-o", "pipefail", "-c", line]
                var env = ProcessInfo.processInfo.environment
                for (key, value) in environment { env[key] = value }
                env.removeValue(forKey: "XDG_DATA_HOME")
                process.environment = env
                let result = try process.runDrained()
                #expect(result.status == 0, "\(result.err)")
                return try String(contentsOfFile: dir + "/\(run)/events.ndjson", encoding: .utf8).split(separator: "\n").map(String.init)
            }
            func shownAndSkipped(_ events: [String]) -> [String] {
                events.compactMap { line in
                    guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], let kind = object["kind"] as? String, kind == "shown" || kind == "skipped" else { return nil }
                    return kind + ":" + (object["id"] as? String ?? "")
                }
            }
            let first = try record("first")
            #expect(shownAndSkipped(first) == ["shown:1000000000000001", "skipped:1000000000000003", "shown:1000000000000004"], "\(first)")
            #expect(fake.server.requestCount(for: hero.mediaPath("sm", "gif")) == 0, "the avoided GIF is never fetched")
            let gifs = try String(contentsOfFile: dir + "/first/gifs.ndjson", encoding: .utf8)
            #expect(gifs.contains(#""kind":"skipped""#) && gifs.contains(#""avoided":1"#), "\(gifs)")
            let seen = try String(contentsOfFile: dir + "/data/seen.ndjson", encoding: .utf8)
            #expect(seen.contains("1000000000000001") && seen.contains("1000000000000004") && !seen.contains("1000000000000003"), "\(seen)")
            let score = try String(contentsOfFile: dir + "/first/score.json", encoding: .utf8)
            #expect(score.contains(#""new_gifs":2"#), "\(score)")

            // The page comes from the API cache, as it was: list puts the GIFs
            // not shown first (the re-upload, the third), and gif-play knows the
            // re-upload by its hash, so the round opens with the third.
            let second = try record("second")
            #expect(shownAndSkipped(second).first == "shown:1000000000000005", "\(second)")
        }
    }

    // The scripts give sposure's help and usage errors (everyScriptExplainsItselfWithHelp):
    // both providers named in it, and its usage errors (the message, never the exit
    // status at its end: issue 16 #3) are Tests/Fixtures/sposure/*-help and *-usage-error.
}
