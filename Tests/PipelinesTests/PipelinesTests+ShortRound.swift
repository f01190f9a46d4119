import Foundation
import Testing
import TestSupport

/// Issue 29 #10: a 1.3 s round on "spiders" fetched all 60 GIFs; on a server
/// with 200 results a 3 s round that showed 11 fetched 139; and the GIFs that
/// failed (a 404, an HTML page) were fetched again every round. The fetcher
/// now stays a bounded distance ahead of the player (paced through a
/// one-page pipe, `--ahead`), and the cache remembers a failure for a day.
///
/// The round is on a virtual clock with a scripted hold: time stands still
/// while the player waits for the next GIF, so it reads its input as fast as
/// the fetcher gives it, and only backpressure can keep the fetcher near.
/// What is asserted is a bound the pipes and queues keep whatever the speed
/// of each process, so the test reads no clock and has no time limit.
extension PipelinesTests {
    /// 200 different-looking GIFs (``distinctGIF(_:)``), served at /gif/N; /gif/1 is
    /// missing (404) and /gif/2 is an HTML page. Returns the server and the
    /// `gif` records, one a line.
    static func shortRoundServer() throws -> (HTTPTestServer, String) {
        let server = try HTTPTestServer()
        var lines: [String] = []
        for index in 0..<200 {
            switch index {
            case 1: server.route("/gif/1", response: .status(404))
            case 2: server.route("/gif/2", response: .ok(Array("<!doctype html><html><body>moved</body></html>\n".utf8), contentType: "text/html"))
            default: server.route("/gif/\(index)", response: .ok(distinctGIF(index)))
            }
            lines.append(#"{"kind":"gif","id":"g\#(index)","query":"spiders","section":"spiders","rank":\#(index),"url":"\#(server.url("/gif/\(index)"))","cache_key":"test:g\#(index)"}"#)
        }
        return (server, lines.joined(separator: "\n") + "\n")
    }

    /// Runs `fetch-images | gif-play` (3 s held on a virtual clock) on
    /// `dir/gifs.ndjson` with the cache in `dir`; returns gif-play's records
    /// and fetch-images' stderr.
    func shortRound(_ dir: String, fetchOptions: String = "") throws -> (records: [String], err: String) {
        let bin = try StageProcess.executableURL(named: "gif-play").deletingLastPathComponent().path
        let line = "'\(bin)/fetch-images' --cache '\(dir)/cache' \(fetchOptions) < '\(dir)/gifs.ndjson' 2> '\(dir)/fetch.err'"
            + " | '\(bin)/gif-play' --renderer none --clock virtual --hold 'script:\(dir)/hold.ndjson' > '\(dir)/events.ndjson'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", line]
        var env = ProcessInfo.processInfo.environment
        env["NO_PROXY"] = "127.0.0.1,localhost"
        env["no_proxy"] = "127.0.0.1,localhost"
        process.environment = env
        let result = try process.runDrained()
        #expect(result.status == 0, "\(result.err)")
        let events = try String(contentsOfFile: dir + "/events.ndjson", encoding: .utf8)
        return (events.split(separator: "\n").map(String.init), try String(contentsOfFile: dir + "/fetch.err", encoding: .utf8))
    }

    @Test func issue29_10_aShortRoundFetchesFewGIFsPastTheLastShownAndAFailureIsNotFetchedAgain() throws {
        let (server, gifs) = try Self.shortRoundServer()
        defer { server.stop() }
        try withTemporaryDirectory { folder in
            let dir = folder.path
            try Data(gifs.utf8).write(to: URL(fileURLWithPath: dir + "/gifs.ndjson"))
            try Self.writeHold(dir + "/hold.ndjson", upMs: 3000)
            let good = (0..<200).filter { $0 > 2 || $0 == 0 }

            let first = try shortRound(dir)
            let shown = first.records.filter { $0.contains(#""kind":"shown""#) }.count
            let fetched = good.filter { server.requestCount(for: "/gif/\($0)") > 0 }.count
            #expect(shown >= 10, "a 3 s round of 0.26 s GIFs: \(first.records)")
            #expect(first.records.last?.contains(#""reason":"released""#) == true, "\(first.records.suffix(2))")
            #expect(fetched <= shown + 12, "\(fetched) GIFs fetched for \(shown) shown")
            #expect(server.requestCount(for: "/gif/1") == 1 && server.requestCount(for: "/gif/2") == 1)
            let firstErrors = first.records.filter { $0.contains(#""kind":"error""#) }
            #expect(firstErrors.count == 2 && firstErrors[0].contains(#""code":"http_404""#)
                    && firstErrors[1].contains(#""code":"not_gif""#), "\(firstErrors)")
            #expect(!firstErrors.contains { $0.contains("remembered") })

            // The next round: the cache serves what was fetched, the failures
            // are remembered (the same codes, said so), and nothing is asked twice.
            let before = server.requestCount
            let second = try shortRound(dir)
            let errors = second.records.filter { $0.contains(#""kind":"error""#) }
            #expect(server.requestCount(for: "/gif/1") == 1 && server.requestCount(for: "/gif/2") == 1)
            #expect(errors.count == 2, "\(errors)")
            #expect(errors.first?.contains(#""code":"http_404""#) == true && errors.first?.contains(#""remembered":""#) == true, "\(errors)")
            #expect(errors.last?.contains(#""code":"not_gif""#) == true && errors.last?.contains(#""remembered":""#) == true, "\(errors)")
            #expect(second.err.contains("stdin:2: http_404: HTTP 404 from \(server.url("/gif/1")) (remembered from "), "\(second.err)")
            #expect(second.err.contains("not fetched again for a day; fetch-images --retry-failed fetches it)"), "\(second.err)")
            let secondShown = second.records.filter { $0.contains(#""kind":"shown""#) }.count
            let fetchedNow = good.filter { server.requestCount(for: "/gif/\($0)") > 0 }.count
            #expect(fetchedNow <= secondShown + 12 && server.requestCount - before <= 12, "\(fetchedNow) for \(secondShown) shown")

            // --retry-failed asks again.
            _ = try shortRound(dir, fetchOptions: "--retry-failed")
            #expect(server.requestCount(for: "/gif/1") == 2 && server.requestCount(for: "/gif/2") == 2)
        }
    }

    /// A GIF of two 130 ms frames of random 8×8 pixels from `seed`: no two
    /// seeds give the same clip to gif-play.
    static func distinctGIF(_ seed: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
        let colors = (0..<4).map { _ in (0..<3).map { _ in UInt8(random.next(256)) } }
        var gif = GIFBuilder(width: 8, height: 8, colors: colors)
        for _ in 0..<2 {
            gif.control(delay: 13)
            gif.image(width: 8, height: 8, pixels: (0..<64).map { _ in UInt8(random.next(4)) })
        }
        gif.trailer()
        return gif.bytes
    }
}
