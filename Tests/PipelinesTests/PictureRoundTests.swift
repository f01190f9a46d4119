import Foundation
import Testing
import TestSupport

/// Issue 31's done-when, through the five stages piped as a person pipes
/// them: with no key, on a Commons-shaped server, they play JPEG and PNG
/// stills, a GIF and an animated WebP, credited (only thumbnails fetched, one
/// API request at a time, a maxlag waited out); on a Giphy-shaped one, each
/// GIF's lighter file of the two the API states is the one fetched.
@Suite(.serialized) struct PictureRoundTests {
    /// The pictures of tests/Fixtures/gif-play/files.
    static func picture(_ name: String) throws -> [UInt8] {
        let files = PipelinesTests.root.appendingPathComponent("Tests/Fixtures/gif-play/files")
        return Array(try Data(contentsOf: files.appendingPathComponent(name)))
    }

    /// A search for "spider" that finds a photograph of each format the
    /// player shows (the JPEG, PNG and WebP wider than a thumbnail, the GIF
    /// narrower), each by its own author, and an SVG it cannot show.
    static func spiders(_ fake: FakeCommons) throws -> [FakeCommonsFile] {
        var files = [
            FakeCommonsFile(pageid: 1001, name: "Araneus diadematus.jpg", mime: "image/jpeg", artist: "<b>Jane</b>&nbsp;Doe"),
            FakeCommonsFile(pageid: 1002, name: "Tegenaria domestica.png", mime: "image/png", width: 2000, height: 1500,
                            artist: #"<a href="//commons.wikimedia.org/wiki/User:Karl">Karl M&uuml;ller</a>"#),
            FakeCommonsFile(pageid: 1003, name: "Jumping spider.gif", mime: "image/gif", width: 480, height: 270, artist: "Ana Silva"),
            FakeCommonsFile(pageid: 1004, name: "Peacock spider.webp", mime: "image/webp", width: 1200, height: 900, artist: "Jürgen Otto"),
            FakeCommonsFile(pageid: 1005, name: "Spider anatomy.svg", mime: "image/svg+xml", artist: "Drawn Diagram"),
        ]
        files[3].license = "CC BY 4.0"
        files[3].licenseURL = "https://creativecommons.org/licenses/by/4.0"
        fake.set("spider", files)
        fake.serveMedia(try picture("photo.jpg"), forFile: files[0].name)
        fake.serveMedia(try picture("spider.png"), forFile: files[1].name)
        fake.serveMedia(PipelinesTests.twoFrameGIF(looping: false), forFile: files[2].name)
        fake.serveMedia(try picture("anim.webp"), forFile: files[3].name)
        return files
    }

    /// The environment of a round with no key: the fake's API, folders in `dir`.
    static func environment(_ fake: FakeCommons, _ dir: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["GIPHY_API_KEY", "KLIPY_API_KEY", "COLUMNS"] { env.removeValue(forKey: key) }
        env.merge(["COMMONS_API_URL": fake.apiURL, "SPOSURE_CACHE": dir + "/cache", "SPOSURE_DATA": dir + "/data",
                   "SPOSURE_CONFIG": dir + "/config", "HOME": dir, "NO_PROXY": "127.0.0.1,localhost",
                   "no_proxy": "127.0.0.1,localhost"]) { $1 }
        return env
    }

    /// Runs `script` in bash with the built stages in `$B` and `dir` in `$D`.
    static func bash(_ script: String, _ env: [String: String], dir: String) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -euo pipefail\n" + script]
        var env = env
        env["B"] = try StageProcess.executableURL(named: "gif-play").deletingLastPathComponent().path
        env["D"] = dir
        process.environment = env
        return try process.runDrained()
    }

    /// The records of kind `kind` in the NDJSON file at `path`.
    static func records(_ path: String, kind: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["kind"] as? String == kind ? object : nil
        }
    }

    @Test func theFiveStagesPlayEveryFormatOfCommonsCreditedWithNoKey() throws {
        let fake = try FakeCommons()
        defer { fake.stop() }
        let files = try Self.spiders(fake)
        fake.fail(.maxlag(status: 200))
        try withTemporaryDirectory { folder in
            let dir = folder.path
            try PipelinesTests.writeHold(dir + "/hold.ndjson", upMs: 60_000)
            let run = try Self.bash("""
                "$B/giphy-pages" plan -q spider | "$B/giphy-pages" list | "$B/fetch-images" | tee "$D/images.ndjson" \\
                  | "$B/gif-play" --renderer none --clock virtual --hold "script:$D/hold.ndjson" | tee "$D/events.ndjson" \\
                  | "$B/score" --format json --now 2026-11-29T12:00:00Z
                """, Self.environment(fake, dir), dir: dir)
            #expect(run.status == 0, "\(run.err)")

            // Only thumbnails: the three wider files at their 960-px
            // thumbnail (list's default --width 640 asks the first standard
            // width at least that wide; an original would be a 404), the
            // narrow GIF as it is; nothing for the SVG, left out before any fetch.
            for file in files.prefix(4) {
                #expect(fake.server.requestCount(for: file.thumbPath(width: 960)) == 1, "\(file.name)")
            }
            #expect([0, 1, 3].allSatisfy { fake.server.requestCount(for: files[$0].path) == 0 })
            #expect([0, 1, 3].allSatisfy { files[$0].thumbPath(width: 960).hasPrefix("/wikipedia/commons/thumb/") })
            #expect(fake.server.requestCount(for: files[4].path) == 0)
            // One API request at a time; the maxlag answer was waited out and
            // asked again, and no error record came of it.
            // (plan's two pages: the first asked again after its maxlag answer).
            #expect(fake.calls.compactMap(\.offset).sorted() == [0, 0, 50])
            #expect(fake.calls.allSatisfy { $0.inFlight == 1 && $0.thumbWidth == 960 })
            #expect(try Self.records(dir + "/images.ndjson", kind: "error").isEmpty)
            let skipped = try Self.records(dir + "/images.ndjson", kind: "skipped")
            #expect(skipped.count == 1)
            #expect((skipped.first?["formats"] as? [String: Int]) == ["image/svg+xml": 1])

            let images = try Self.records(dir + "/images.ndjson", kind: "image")
            #expect(images.compactMap { $0["mime"] as? String } == ["image/jpeg", "image/png", "image/gif", "image/webp"])

            // Every picture played, stills for 5 s each, the GIF's and the
            // WebP's every frame, each with its credit.
            let shown = try Self.records(dir + "/events.ndjson", kind: "shown")
            #expect(shown.compactMap { $0["id"] as? String } == ["1001", "1002", "1003", "1004"])
            #expect(shown.compactMap { $0["frames"] as? Int } == [1, 1, 2, 3])
            #expect(shown.prefix(2).compactMap { $0["exposed_ms"] as? Int } == [5000, 5000])
            #expect(shown.compactMap { $0["author"] as? String } == ["Jane Doe", "Karl Müller", "Ana Silva", "Jürgen Otto"])
            #expect(shown.compactMap { $0["license"] as? String } == ["CC BY-SA 4.0", "CC BY-SA 4.0", "CC BY-SA 4.0", "CC BY 4.0"])
            #expect(shown.allSatisfy { $0["provider"] as? String == "commons" && $0["completed"] as? Bool == true })

            // The score keeps the credits with the round.
            let score = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
            #expect(score?["gifs_shown"] as? Int == 4)
            #expect(score?["errors"] as? Int == 0)
            let credits = (score?["credits"] as? [[String: String]]) ?? []
            #expect(credits.map { $0["author"] } == ["Jane Doe", "Karl Müller", "Ana Silva", "Jürgen Otto"])
            #expect(credits.first?["page_url"] == "https://commons.wikimedia.org/wiki/File:Araneus_diadematus.jpg")
        }
    }

    @Test func sposureRecordPlaysAndScoresACommonsRoundWithNoKey() throws {
        let fake = try FakeCommons()
        defer { fake.stop() }
        _ = try Self.spiders(fake)
        try withTemporaryDirectory { folder in
            let dir = folder.path
            try PipelinesTests.writeHold(dir + "/hold.ndjson", upMs: 8_000)
            let run = try Self.bash(#""$B/sposure" record --hold-script "$D/hold.ndjson" "$D/run" spider"#,
                                    Self.environment(fake, dir), dir: dir)
            #expect(run.status == 0, "\(run.err)")
            let shown = try Self.records(dir + "/run/events.ndjson", kind: "shown")
            #expect(shown.compactMap { $0["id"] as? String } == ["1001", "1002"])
            #expect(shown.compactMap { $0["author"] as? String } == ["Jane Doe", "Karl Müller"])
            let score = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/run/score.json"))) as? [String: Any]
            #expect(score?["exposed_ms"] as? Int == 8000)
            #expect(((score?["credits"] as? [[String: String]]) ?? []).map { $0["author"] } == ["Jane Doe", "Karl Müller"])
            // The round replays to the same score from what was saved.
            let replay = try Self.bash(#""$B/sposure" replay "$D/run""#, Self.environment(fake, dir), dir: dir)
            #expect(replay.status == 0, "\(replay.err)")
            #expect(replay.out == (try String(contentsOfFile: dir + "/run/score.json", encoding: .utf8)))
        }
    }

    @Test func aGiphyRoundFetchesWhicheverOfTheGIFAndTheWebPWeighsLessAndPlaysIt() throws {
        let fake = try FakeGiphy()
        defer { fake.stop() }
        let media = fake.baseURL + "/media"
        func spider(_ id: String, gifSize: Int, webpSize: Int) -> FakeGIF {
            FakeGIF(id: id, title: "Spider \(id)", renditions: [
                .init("fixed_height", FakeRendition(url: "\(media)/\(id)/200.gif", width: 24, height: 16, size: gifSize,
                                                    webp: "\(media)/\(id)/200.webp", webpSize: webpSize)),
            ])
        }
        fake.set(.search("spider"), items: [spider("webpLighter", gifSize: 90_000, webpSize: 20_000),
                                            spider("gifLighter", gifSize: 10_000, webpSize: 30_000)])
        // Both files of both GIFs are there to fetch: which one was is counted.
        for id in ["webpLighter", "gifLighter"] {
            fake.server.route("/media/\(id)/200.gif", response: .ok(PipelinesTests.twoFrameGIF(looping: false)))
            fake.server.route("/media/\(id)/200.webp", response: .ok(try Self.picture("anim.webp"), contentType: "image/webp"))
        }
        try withTemporaryDirectory { folder in
            let dir = folder.path
            try PipelinesTests.writeHold(dir + "/hold.ndjson", upMs: 60_000)
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "KLIPY_API_KEY")
            env.merge(["GIPHY_API_KEY": fake.key, "GIPHY_API_URL": fake.baseURL, "SPOSURE_CACHE": dir + "/cache",
                       "SPOSURE_DATA": dir + "/data", "NO_PROXY": "127.0.0.1,localhost"]) { $1 }
            let run = try Self.bash("""
                "$B/giphy-pages" plan -q spider | "$B/giphy-pages" list | "$B/fetch-images" \\
                  | "$B/gif-play" --renderer none --clock virtual --hold "script:$D/hold.ndjson" | tee "$D/events.ndjson" \\
                  | "$B/score" --format json --now 2026-11-29T12:00:00Z
                """, env, dir: dir)
            #expect(run.status == 0, "\(run.err)")
            #expect(fake.server.requestCount(for: "/media/webpLighter/200.webp") == 1)
            #expect(fake.server.requestCount(for: "/media/webpLighter/200.gif") == 0)
            #expect(fake.server.requestCount(for: "/media/gifLighter/200.gif") == 1)
            #expect(fake.server.requestCount(for: "/media/gifLighter/200.webp") == 0)
            let shown = try Self.records(dir + "/events.ndjson", kind: "shown")
            #expect(shown.compactMap { $0["id"] as? String } == ["webpLighter", "gifLighter"])
            #expect(shown.compactMap { $0["frames"] as? Int } == [3, 2], "the WebP's three frames, the GIF's two")
            #expect(run.out.contains(#""gifs_shown":2"#) && run.out.contains(#""errors":0"#), "\(run.out)")
        }
    }
}
