// End-to-end tests of the built `giphy-pages` binary (plan and list), run over
// real pipes against FakeGiphy, a Giphy-compatible API on 127.0.0.1 modelled
// on the real responses of ../shared/corpus/giphy (string numbers, `{}` and
// missing renditions, duplicates, a changing or missing total_count, both
// error shapes, 429 without Retry-After, synthetic answers, the offset caps,
// slow pages). The child gets GIPHY_API_KEY and GIPHY_API_URL (or --api-url)
// in its environment; every run checks that the key appears nowhere in its
// stdout or stderr. Children are killed after a generous safety timeout, and
// that fails the test; no test asserts how long something took.
//
// The contract under test: issue 3, docs/stream-format.md, design.md.

import Foundation
import SposureKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized)
struct GiphyPagesEndToEndTests {
    // Pings, pages, records, retries, fallbacks and refused keys are cases
    // as data: Tests/Fixtures/giphy-pages/ (GoldenTests). What stays here
    // needs signals, typed input over time, closed pipes, timing, or more
    // than one run.

    // MARK: - plan: pings and pages

    /// The ping runs on the request engine now (issue 20): Ctrl-C while it
    /// waits on a stalled API stops it at once, with the query's error record
    /// and exit 130, as the planner's own loop did.
    @Test func planCtrlCDuringAStalledPingEndsWithAnInterruptedRecord() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 20)
            world.fake.delay(30, list: .search("spiders"))
            let stage = try world.start(["plan", "spiders"])
            let began = Date()
            while world.fake.calls.isEmpty && Date().timeIntervalSince(began) < 20 { usleep(20_000) }
            usleep(200_000)
            stage.send(signal: SIGINT)
            let result = world.finish(stage)
            #expect(result.exitCode == 130)
            #expect(Date().timeIntervalSince(began) < 15, "stopped without waiting for the stalled answer")
            let records = try result.stdoutLines.map { try JSONRecord.parse($0) }
            #expect(records.count == 1)
            #expect(records.first?.kind == "error")
            #expect(records.first?.string("code") == "interrupted")
            #expect(records.first?.string("query") == "spiders")
        }
    }

    // MARK: - plan: typed queries and --follow

    @Test func planDebouncesQueriesTypedQuickly() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 40)
            world.fake.set(.search("snakes"), count: 30)
            let stage = try world.start(["plan", "--queries-from", "-", "--debounce", "1s"], keepStdinOpen: true)
            for query in ["s", "sp", "spi", "spiders"] {
                stage.feed(Array("\(query)\n".utf8))
                usleep(20_000)
            }
            // "spiders" stands once the debounce has passed: then a pause, then "snakes".
            let spiders = world.fake.wait(timeout: 60) { world.fake.searchedQueries.contains("spiders") }
            stage.waitForStdoutLines(1, timeout: 60)
            stage.feed(Array("snakes\n".utf8))
            let snakes = world.fake.wait(timeout: 60) { world.fake.searchedQueries.contains("snakes") }
            stage.waitForStdoutLines(2, timeout: 60)
            stage.closeStdin()
            let result = world.finish(stage)

            #expect(spiders)
            #expect(snakes)
            #expect(result.exitCode == 0)
            #expect(world.fake.searchedQueries == ["spiders", "snakes"], "only the queries that stood were searched")
            #expect(result.stdoutLines == [
                pageLine("spiders", offset: 0, limit: 40, total: 40),
                pageLine("snakes", offset: 0, limit: 30, total: 30),
            ])
        }
    }

    @Test func planFollowPicksUpANewTrendingGIF() throws {
        try withWorld { world in
            let first = (0..<10).map { FakeGIF.make(id: "trendA\($0)") }
            world.fake.set(.trending, items: first)
            let plan = try world.start(["plan", "--trending", "--follow", "--interval", "1s", "--limit", "5", "--max-results", "10"])
            let list = try world.start(["list"], keepStdinOpen: true)
            let pipe = Relay(from: plan, to: list)

            let listed = pipe.wait(timeout: 60) { list.stdoutLinesSoFar.count >= 10 }
            // A follow poll has been answered (page 0 asked a second time) before the new GIF comes.
            let polled = pipe.wait(timeout: 60) {
                world.fake.calls(to: .trending).filter { $0.offset == 0 && $0.limit == 5 }.count >= 2
            }
            let fresh = FakeGIF.make(id: "freshNEW1", title: "Brand new spider")
            world.fake.prepend(fresh, to: .trending)
            let picked = pipe.wait(timeout: 60) { list.stdoutLinesSoFar.contains { $0.contains(#""id":"freshNEW1""#) } }
            plan.send(signal: SIGINT)
            let planResult = world.finish(plan)
            pipe.pump()
            list.closeStdin()
            let listResult = world.finish(list)

            #expect(listed)
            #expect(polled)
            #expect(picked)
            #expect(planResult.exited, "killed by signal \(planResult.status)")
            #expect(planResult.exitCode == 130)
            #expect(listResult.exitCode == 0)
            try #require(planResult.stdoutLines.count >= 3)
            #expect(Array(planResult.stdoutLines.prefix(2)) == [
                pageLine(nil, offset: 0, limit: 5, total: 10),
                pageLine(nil, offset: 5, limit: 5, total: 10),
            ])
            #expect(planResult.stdoutLines.dropFirst(2).allSatisfy { $0 == pageLine(nil, offset: 0, limit: 5, total: 10) },
                    "follow asks for the first page again")
            let expected = first.enumerated().map { gifLine($1, rank: $0, query: nil) } + [gifLine(fresh, rank: 0, query: nil)]
            #expect(listResult.stdoutLines == expected, "the ten, then only the new one")
        }
    }

    @Test func planFollowEndsQuietlyWhenDownstreamCloses() throws {
        try withWorld { world in
            world.fake.set(.trending, count: 10)
            let result = try world.plan(["--trending", "--follow", "--interval", "1s", "--limit", "5", "--max-results", "10"],
                                        closeStdoutAfterLines: 1)

            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [pageLine(nil, offset: 0, limit: 5, total: 10)])
        }
    }

    @Test func planEndsQuietlyWhenDownstreamCloses() throws {
        try withWorld { world in
            let result = try world.plan(["--no-ping", "--total", "5000", "--limit", "1", "spiders"], closeStdoutAfterLines: 1)

            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [pageLine("spiders", offset: 0, limit: 1, total: 5000)])
        }
    }

    // MARK: - list: failures and retries

    @Test func listKeepsItsClientSideRateLimit() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 25)
            let pages = (0..<5).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 25) }
            let result = try world.list(["--rate", "2/s"], lines: pages)

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines.count == 25)
            let times = world.fake.calls.map(\.time)
            try #require(times.count == 5)
            // A burst of two, then one call every half second: the fifth
            // cannot come before 1.5 s (a lower bound only; a busy machine is slower).
            #expect(times[4] - times[0] >= 1.3, "calls at \(times)")
        }
    }

    @Test func listInterruptedMidRunWritesInterruptedRecordsForThePagesInFlight() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 15)
            world.fake.delay(60, list: .search("spiders"), offset: 5)
            world.fake.delay(60, list: .search("spiders"), offset: 10)
            let pages = (0..<3).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 15) }
            let stage = try world.start(["list", "--concurrency", "2"], stdin: Array(pages.map { $0 + "\n" }.joined().utf8),
                                        keepStdinOpen: true)
            let firstDone = stage.waitForStdoutLines(5, timeout: 60)
            let inFlight = world.fake.wait(timeout: 60) { world.fake.calls.count >= 3 }
            stage.send(signal: SIGINT)
            let result = world.finish(stage)

            #expect(firstDone)
            #expect(inFlight)
            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 130)
            try #require(result.stdoutLines.count == 7)
            #expect(Array(result.stdoutLines.prefix(5))
                == (0..<5).map { gifLine(FakeGiphy.generated(.search("spiders"), $0), rank: $0, query: "spiders") })
            try expectPageError(result.stdoutLines[5], code: "interrupted", page: pages[1])
            try expectPageError(result.stdoutLines[6], code: "interrupted", page: pages[2])
        }
    }

    /// Regression (issue 16 #6): on SIGINT the pages not yet read from stdin
    /// vanished (10 pages in: 91 gifs and one `interrupted` record out, the 7
    /// others gone), so --retry-errors could not take them back. The pages
    /// upstream still writes become `interrupted` records too.
    @Test func listInterruptedTurnsThePagesStillComingOnStdinIntoInterruptedRecords() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 30)
            world.fake.delay(60, list: .search("spiders"), offset: 0)
            let pages = (0..<6).map { pageLine("spiders", offset: $0 * 5, limit: 5, total: 30) }
            let stage = try world.start(["list", "--concurrency", "1"], stdin: Array((pages[0] + "\n").utf8), keepStdinOpen: true)
            let inFlight = world.fake.wait(timeout: 60) { world.fake.calls.count >= 1 }
            stage.send(signal: SIGINT)
            stage.feed(Array(pages.dropFirst().map { $0 + "\n" }.joined().utf8))
            stage.closeStdin()
            let result = world.finish(stage)

            #expect(inFlight)
            #expect(result.exitCode == 130)
            try #require(result.stdoutLines.count == 6)
            for (index, line) in result.stdoutLines.enumerated() {
                try expectPageError(line, code: "interrupted", page: pages[index])
            }
            // The pages never run are run later (the first still answers slowly).
            let replay = try world.list(["--retry-errors"], lines: Array(result.stdoutLines.dropFirst()))
            #expect(replay.exitCode == 0)
            #expect(replay.stdoutLines.count == 25)
        }
    }

    // MARK: - list: the stream contract

    @Test func listEndsQuietlyWhenDownstreamCloses() throws {
        try withWorld { world in
            world.fake.set(.search("spiders"), count: 1500)
            let pages = (0..<30).map { pageLine("spiders", offset: $0 * 50, limit: 50, total: 1500) }
            let result = try world.list([], lines: pages, closeStdoutAfterLines: 1)

            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines == [gifLine(FakeGiphy.generated(.search("spiders"), 0), rank: 0, query: "spiders")])
            #expect(world.fake.calls.count <= 30)
        }
    }
}

// MARK: - The world of one test

/// A fake Giphy and ways to run giphy-pages against it.
private final class World {
    let fake: FakeGiphy
    /// Each run gets a fresh API cache and data folder (the call budget), so
    /// runs of one test call the API as they did before those lasted across runs.
    private var folders: [String] = []

    init() throws { fake = try FakeGiphy() }

    deinit {
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func freshFolder() -> String {
        let path = NSTemporaryDirectory() + "sposure-giphy-pages-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        folders.append(path)
        return path
    }

    func start(_ arguments: [String], stdin: [UInt8] = [], keepStdinOpen: Bool = false, closeStdoutAfterLines: Int? = nil) throws -> StageProcess {
        let environment = [
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "NO_COLOR": "1", "GIPHY_API_KEY": fake.key,
            "GIPHY_API_URL": fake.baseURL, "SPOSURE_CACHE": freshFolder(), "SPOSURE_DATA": freshFolder(),
        ]
        let unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "KLIPY_API_KEY"]
        return try StageProcess(
            "giphy-pages", arguments: arguments, environment: environment, unsetEnvironment: unset,
            stdin: stdin, keepStdinOpen: keepStdinOpen, closeStdoutAfterLines: closeStdoutAfterLines)
    }

    /// Waits for `stage` (killing it after a generous safety timeout) and checks that the key did not leak.
    func finish(_ stage: StageProcess, sourceLocation: SourceLocation = #_sourceLocation) -> StageProcess.Result {
        let result = stage.wait(timeout: 120)
        #expect(!result.timedOut, "killed after the safety timeout", sourceLocation: sourceLocation)
        #expect(!String(decoding: result.stdout, as: UTF8.self).contains(fake.key), "the API key appears in stdout", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains(fake.key), "the API key appears in stderr", sourceLocation: sourceLocation)
        return result
    }

    func plan(_ arguments: [String], closeStdoutAfterLines: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        finish(try start(["plan"] + arguments, closeStdoutAfterLines: closeStdoutAfterLines), sourceLocation: sourceLocation)
    }

    func list(_ arguments: [String], lines: [String], closeStdoutAfterLines: Int? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> StageProcess.Result {
        let stdin = Array(lines.map { $0 + "\n" }.joined().utf8)
        return finish(try start(["list"] + arguments, stdin: stdin, closeStdoutAfterLines: closeStdoutAfterLines), sourceLocation: sourceLocation)
    }
}

private func withWorld(_ body: (World) throws -> Void) throws {
    let world = try World()
    defer { world.fake.stop() }
    try body(world)
}

/// Forwards one child's stdout lines to another's stdin, as a shell pipe does.
private final class Relay {
    let from: StageProcess
    let to: StageProcess
    private var forwarded = 0

    init(from: StageProcess, to: StageProcess) {
        self.from = from
        self.to = to
    }

    func pump() {
        let lines = from.stdoutLinesSoFar
        while forwarded < lines.count {
            to.feed(Array((lines[forwarded] + "\n").utf8))
            forwarded += 1
        }
    }

    /// Pumps until `condition` holds or the safety `timeout` passes.
    func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            pump()
            if condition() { return true }
            usleep(20_000)
        }
        pump()
        return condition()
    }
}

// MARK: - Expected lines

/// A page record exactly as `giphy-pages plan` writes it.
private func pageLine(_ query: String?, offset: Int, limit: Int, total: Int?) -> String {
    let endpoint = query == nil ? "trending" : "search"
    var text = #"{"kind":"page","endpoint":"\#(endpoint)","#
    if let query { text += #""query":\#(FakeGiphy.jsonString(query)),"# }
    text += #""section":\#(FakeGiphy.jsonString(query ?? endpoint)),"offset":\#(offset),"limit":\#(limit),"#
    return text + #""rating":"g","lang":"en","total":\#(total.map(String.init) ?? "null")}"#
}

/// A gif record exactly as `giphy-pages list` must write it for `gif`: numbers
/// as numbers, the URL as served, frames from the rendition else the original.
private func gifLine(_ gif: FakeGIF, rank: Int, query: String?) -> String {
    let rendition = "fixed_height", chosen = gif.rendition(rendition)
    let frames = chosen?.frames ?? gif.rendition("original")?.frames
    func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    // By default (--formats gif,webp) the rendition's WebP where it weighs less.
    var file = (url: chosen?.url ?? "", size: chosen?.size, key: rendition, mime: "")
    if let chosen, let url = chosen.webp, let size = chosen.webpSize, let gifSize = chosen.size, size < gifSize {
        file = (url, size, rendition + ".webp", #","mime":"image/webp""#)
    }
    var text = #"{"kind":"gif","id":\#(FakeGiphy.jsonString(gif.id)),"title":\#(FakeGiphy.jsonString(gif.title)),"#
    if let query { text += #""query":\#(FakeGiphy.jsonString(query)),"# }
    text += #""section":\#(FakeGiphy.jsonString(query ?? "trending")),"rank":\#(rank),"rendition":"\#(rendition)","#
    text += #""url":\#(FakeGiphy.jsonString(file.url)),"width":\#(number(chosen?.width)),"height":\#(number(chosen?.height)),"#
    return text + #""frames":\#(number(frames)),"size":\#(number(file.size)),"cache_key":"giphy:\#(gif.id):\#(file.key)""# + file.mime + "}"
}

/// The JSON text of one field's value.
private func rawValue(_ record: JSONRecord, _ key: String) -> String {
    let holder = JSONRecord()
    holder.set("v", from: record, key: key)
    return holder.text
}

/// An error record of `giphy-pages list` made from `page`: the page's fields
/// in order and unchanged, then stage, code and error (no attempts: never retried).
private func expectPageError(_ line: String, code: String, page: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
    let record = try JSONRecord.parse(line)
    let source = try JSONRecord.parse(page)
    #expect(record.kind == "error", "\(line)", sourceLocation: sourceLocation)
    #expect(record.string("stage") == "giphy-pages list", sourceLocation: sourceLocation)
    #expect(record.string("code") == code, "\(line)", sourceLocation: sourceLocation)
    #expect(!(record.string("error") ?? "").isEmpty, "no error message", sourceLocation: sourceLocation)
    #expect(record.keys == source.keys + ["stage", "code", "error"], "\(line)", sourceLocation: sourceLocation)
    for key in source.keys where key != "kind" {
        #expect(rawValue(record, key) == rawValue(source, key), "field \(key) changed", sourceLocation: sourceLocation)
    }
}
