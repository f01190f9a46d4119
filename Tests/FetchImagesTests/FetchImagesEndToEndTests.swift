// End-to-end tests of the built `fetch-images` binary, run over real pipes
// against a real HTTP server on 127.0.0.1 (TestSupport's HTTPTestServer).
// Each test gets a fresh server and a fresh temporary cache; the child is
// killed after a generous safety timeout, and that fails the test.
//
// The contract under test is docs/fetch-images-spec.md.

import Foundation
import Hashing
import SposureKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized)
struct FetchImagesEndToEndTests {

    // MARK: - Success

    @Test func bodiesAroundTheBlockSizeAreStoredAndHashedExactly() throws {
        // One block (64 KiB) or less is hashed on the transfer thread; more goes to
        // the hash thread block by block: both ways give the file's SHA-256.
        try withWorld { world in
            let sizes = [35, 65_535, 65_536, 65_537, 131_072, 1_000_003]
            let bodies = sizes.enumerated().map { TestGIF.padded(toSize: $0.element, seed: UInt8($0.offset + 7)) }
            for (index, body) in bodies.enumerated() { world.server.route("/\(index).gif", response: .ok(body)) }
            let input = bodies.indices.map { gifLine(id: "\($0)", url: world.server.url("/\($0).gif")) }
            let result = try world.run(["--quiet", "--concurrency", "3"], lines: input)
            #expect(result.exitCode == 0, "\(result.stderr)")
            try #require(result.stdoutLines.count == bodies.count)
            for (index, served) in bodies.enumerated() {
                #expect(served.count == sizes[index])
                try expectImage(try JSONRecord.parse(result.stdoutLines[index]), from: try JSONRecord.parse(input[index]),
                                served: served, cache: world.cache)
            }
        }
    }

    @Test func reusesConnectionsAcrossTransfers() throws {
        try withWorld { world in
            var input: [String] = []
            for index in 0..<8 {
                world.server.route("/\(index).gif", response: .ok(TestGIF.padded(toSize: 100 + index, seed: UInt8(index))))
                input.append(gifLine(id: "g\(index)", url: world.server.url("/\(index).gif"), rank: index))
            }
            let result = try world.run(["--quiet", "--concurrency", "1"], lines: input)

            #expect(result.exitCode == 0)
            #expect(result.stdoutLines.count == 8)
            #expect(world.server.requestCount == 8)
            #expect(world.server.connectionCount == 1)
        }
    }

    // MARK: - HTTP failures and retries (the rest, FIFOs and the cache: Tests/Fixtures/fetch-images/)

    @Test func bodyLargerThanMaxBytesIsStoppedEarlyAsTooLarge() throws {
        try withWorld { world in
            // 5 MB, written in paced pieces so that "the server finished" can only
            // mean the client read it all, not that socket buffers swallowed it.
            let big = TestGIF.padded(toSize: 5_000_000, seed: 3)
            world.server.route(
                "/big.gif", response: HTTPTestServer.Response.ok(big).paced(chunkSize: 64 * 1024, delay: 0.01))
            let input = [gifLine(id: "big", url: world.server.url("/big.gif"))]
            let result = try world.run(["--quiet", "--max-bytes", "10KB", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectError(try JSONRecord.parse(result.stdoutLines[0]), code: "too_large", from: try JSONRecord.parse(input[0]))
            world.server.stop()  // joins the connection threads, so the counters are final
            #expect(world.server.requestCount(for: "/big.gif") == 1)
            #expect(world.server.fullySentCount(for: "/big.gif") == 0)
            #expect(try world.cachedImages().isEmpty)
            #expect(try world.temporaryFiles().isEmpty)
        }
    }

    /// Regression (issue 16 #2): once the player has closed its input, a
    /// transfer still stalled kept fetch-images (and the shell prompt) for minutes.
    @Test func aClosedReaderStopsTheStageThoughATransferIsStalled() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 400, seed: 2)
            world.server.route("/a.gif", response: .ok(gif))
            world.server.route("/stall.gif", response: HTTPTestServer.Response.ok(gif).stalled(afterBodyBytes: 0))
            let input = [
                gifLine(id: "a", url: world.server.url("/a.gif")),
                gifLine(id: "stall", url: world.server.url("/stall.gif"), rank: 1),
            ]
            let result = try world.run(["--max-time", "0", "--low-speed-time", "600s"], lines: input, closeStdoutAfterLines: 1)

            #expect(!result.timedOut)
            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stdoutLines.count == 1)
            #expect(try world.temporaryFiles().isEmpty)
        }
    }

    /// Review fix (issue 16 #2): with nothing in flight and no input coming
    /// (an upstream that follows), a reader downstream that went away was
    /// noticed only when upstream wrote again; now at once.
    @Test func aClosedReaderStopsTheStageWhileItWaitsForInput() throws {
        try withWorld { world in
            world.server.route("/a.gif", response: .ok(TestGIF.onePixel))
            let stage = try StageProcess("fetch-images", arguments: ["--cache", world.cache.path, "--quiet"],
                                         environment: world.environment, unsetEnvironment: world.unset,
                                         stdin: Array((gifLine(id: "a", url: world.server.url("/a.gif")) + "\n").utf8),
                                         keepStdinOpen: true, closeStdoutAfterLines: 1)
            let result = stage.wait(timeout: 30)
            #expect(!result.timedOut)
            #expect(result.exited && result.exitCode == 0, "\(result)")
        }
    }

    // MARK: - The stream

    // --ordered and --unordered with a slow first transfer: Tests/Fixtures/fetch-images/*ordered-records-come-*.

    @Test func closedStdoutEndsTheRunQuietlyWithExitZero() throws {
        try withWorld { world in
            world.server.route("/a.gif", response: .ok(TestGIF.onePixel))
            world.server.route("/b.gif", response: .ok(TestGIF.padded(toSize: 200, seed: 1)))
            var input = [
                gifLine(id: "a", url: world.server.url("/a.gif")),
                gifLine(id: "b", url: world.server.url("/b.gif"), rank: 1),
            ]
            // Far more than a pipe holds, so the stage is still writing when stdout closes.
            for index in 0..<20_000 {
                input.append(#"{"kind":"page","endpoint":"search","query":"spiders","offset":\#(index),"limit":25}"#)
            }
            let result = try world.run([], lines: input, closeStdoutAfterLines: 2)

            #expect(!result.timedOut)
            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutLines.count == 2)
            #expect(try world.temporaryFiles().isEmpty)
        }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalMidRunEmitsInterruptedRecordsAndCleansUp(signal: Int32, status: Int32) throws {
        try interruptMidRun(signal: signal, expectedStatus: status)
    }

    /// Regression: the batch the reader held when a signal came (parsed, blocked
    /// on the full input queue) was dropped, so lines fetch-images had read got
    /// no record and `--retry-errors` could not pick them up. stdin is a file
    /// whose offset the test shares with the child: every complete line before
    /// it must have its record, in order.
    @Test func aSignalLeavesNoLineReadWithoutItsRecord() throws {
        try withWorld { world in
            world.server.route("/slow.gif", response: HTTPTestServer.Response.ok(TestGIF.onePixel).delayed(30))
            var text = ""
            for index in 0..<20_000 { text += gifLine(id: "g\(index)", url: world.server.url("/slow.gif"), rank: index) + "\n" }
            let input = world.root.appendingPathComponent("input.ndjson")
            try Data(text.utf8).write(to: input)
            let file = open(input.path, O_RDONLY | O_CLOEXEC)
            try #require(file >= 0)
            defer { close(file) }
            let stage = try StageProcess(
                "fetch-images", arguments: ["--cache", world.cache.path, "--quiet", "--concurrency", "2"],
                environment: world.environment, stdinDescriptor: file)
            // The transfers hang; the reader fills the input queue and waits on it
            // (stdin's offset stops moving).
            var before = -1
            var offset = 0
            let start = Date()
            while offset == 0 || offset != before, Date().timeIntervalSince(start) < 30 {
                before = offset
                usleep(200_000)
                offset = Int(lseek(file, 0, SEEK_CUR))
            }
            stage.send(signal: SIGINT)
            let result = stage.wait(timeout: 60)
            #expect(result.exitCode == 130, "\(result)")
            let consumed = Int(lseek(file, 0, SEEK_CUR))
            // It read some of stdin, not all: the queue was full when the signal came.
            try #require(consumed > 0 && consumed < text.utf8.count, "read \(consumed) of \(text.utf8.count) bytes")
            let lines = text.utf8.prefix(consumed).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            #expect(result.stdoutLines.count == lines, "\(result.stdoutLines.count) records for \(lines) lines read")
            for (index, line) in result.stdoutLines.enumerated() {
                let record = try JSONRecord.parse(line)
                #expect(record.string("id") == "g\(index)")
                #expect(record.string("kind") == "error")
                guard record.string("id") == "g\(index)" else { break }
            }
        }
    }

    // MARK: - Shared scenarios

    /// Two fast transfers finish, two stall in flight, two wait in the queue; then `signal`.
    private func interruptMidRun(signal: Int32, expectedStatus: Int32) throws {
        try withWorld { world in
            let fast = [TestGIF.padded(toSize: 2000, seed: 1), TestGIF.padded(toSize: 2100, seed: 2)]
            world.server.route("/fast1.gif", response: .ok(fast[0]))
            world.server.route("/fast2.gif", response: .ok(fast[1]))
            var input = [
                gifLine(id: "fast1", url: world.server.url("/fast1.gif")),
                gifLine(id: "fast2", url: world.server.url("/fast2.gif"), rank: 1),
            ]
            for index in 1...4 {
                let body = TestGIF.padded(toSize: 100_000, seed: UInt8(20 + index))
                world.server.route("/stall\(index).gif", response: HTTPTestServer.Response.ok(body).stalled(afterBodyBytes: 20_000))
                input.append(gifLine(id: "stall\(index)", url: world.server.url("/stall\(index).gif"), rank: 1 + index))
            }
            let stage = try world.start(
                ["--quiet", "--concurrency", "2"], stdin: Array(input.map { $0 + "\n" }.joined().utf8),
                keepStdinOpen: true)
            let stalls = { (1...4).reduce(0) { $0 + world.server.requestCount(for: "/stall\($1).gif") } }
            let fastDone = stage.waitForStdoutLines(2, timeout: 30)
            let inFlight = world.server.wait(timeout: 30) { stalls() >= 2 }
            // Give the stalled transfers a moment to land their first bytes in <cache>/tmp.
            _ = world.server.wait(timeout: 5) { ((try? world.temporaryFiles()) ?? []).count >= 2 }
            stage.send(signal: signal)
            let result = stage.wait(timeout: 60)

            #expect(fastDone)
            #expect(inFlight)
            #expect(!result.timedOut)
            #expect(result.exited, "killed by signal \(result.status)")
            #expect(result.exitCode == expectedStatus)
            #expect(result.stdoutEndsWithNewline)
            // One line per input line read: at least the two done and the two in flight.
            #expect((4...6).contains(result.stdoutLines.count), "\(result.stdoutLines.count) lines")
            for (index, line) in result.stdoutLines.enumerated() {
                let record = try JSONRecord.parse(line)
                let source = try JSONRecord.parse(input[index])
                #expect(record.string("id") == source.string("id"))
                if index < 2 {
                    try expectImage(record, from: source, served: fast[index], cache: world.cache)
                } else {
                    try expectError(record, code: "interrupted", from: source)
                }
            }
            #expect(try world.temporaryFiles().isEmpty)
            let images = try world.cachedImages()
            #expect(images.count == 2)
            for image in images {
                let bytes = try [UInt8](Data(contentsOf: image))
                #expect(fast.contains(bytes), "unexpected file \(image.path) of \(bytes.count) bytes")
            }
        }
    }

    // MARK: - Checks

    /// Checks an image record against its input record and the bytes served.
    private func expectImage(
        _ record: JSONRecord, from source: JSONRecord, served: [UInt8], cache: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = String(decoding: record.serialized(), as: UTF8.self)
        #expect(record.string("kind") == "image", "\(text)", sourceLocation: sourceLocation)
        #expect(
            record.keys == source.keys + ["path", "bytes", "sha256", "cached", "http_status", "ms"],
            sourceLocation: sourceLocation)
        for key in source.keys where key != "kind" {
            #expect(record.jsonText(key) == source.jsonText(key), "field \(key) changed", sourceLocation: sourceLocation)
        }
        let key = source.string("cache_key") ?? source.string("url") ?? ""
        let expectedPath = cache.appendingPathComponent(cacheRelativePath(key: key)).path
        let path = try #require(record.string("path"), sourceLocation: sourceLocation)
        #expect(path == expectedPath, sourceLocation: sourceLocation)
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(stored == served, "cached file differs from what was served", sourceLocation: sourceLocation)
        #expect(record.jsonText("bytes") == "\(served.count)", sourceLocation: sourceLocation)
        #expect(record.string("sha256") == sha256Hex(served), sourceLocation: sourceLocation)
        #expect(["true", "false"].contains(record.jsonText("cached") ?? ""), sourceLocation: sourceLocation)
        let status = record.jsonText("http_status") ?? ""
        #expect(status == "null" || Int(status) != nil, sourceLocation: sourceLocation)
        let ms = Int(record.jsonText("ms") ?? "")
        #expect((ms ?? -1) >= 0, "ms: \(record.jsonText("ms") ?? "missing")", sourceLocation: sourceLocation)
    }

    /// Checks an error record: the input's fields first and in order, then stage, code and a message.
    private func expectError(
        _ record: JSONRecord, code: String, from source: JSONRecord,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = String(decoding: record.serialized(), as: UTF8.self)
        #expect(record.string("kind") == "error", "\(text)", sourceLocation: sourceLocation)
        #expect(record.string("code") == code, "\(text)", sourceLocation: sourceLocation)
        #expect(record.string("stage") == "fetch-images", sourceLocation: sourceLocation)
        #expect(!(record.string("error") ?? "").isEmpty, "no error message", sourceLocation: sourceLocation)
        #expect(record.keys.starts(with: source.keys), "input fields not kept in order", sourceLocation: sourceLocation)
        for key in source.keys where key != "kind" {
            #expect(record.jsonText(key) == source.jsonText(key), "field \(key) changed", sourceLocation: sourceLocation)
        }
        for key in ["stage", "code", "error"] {
            #expect(record.keys.contains(key), "no \(key)", sourceLocation: sourceLocation)
        }
    }
}

// MARK: - The world of one test

/// A server, a temporary folder with an empty cache in it, and ways to run fetch-images there.
private struct World {
    let server: HTTPTestServer
    let root: URL
    var cache: URL { root.appendingPathComponent("cache", isDirectory: true) }

    /// The environment: no proxies, no cache settings from the developer's shell.
    var environment: [String: String] {
        [
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            "XDG_CACHE_HOME": root.appendingPathComponent("xdg").path,
            "NO_COLOR": "1",
        ]
    }
    let unset = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "SPOSURE_CACHE"]

    func start(_ arguments: [String], stdin: [UInt8], keepStdinOpen: Bool = false, closeStdoutAfterLines: Int? = nil) throws
        -> StageProcess
    {
        try StageProcess(
            "fetch-images", arguments: ["--cache", cache.path] + arguments, environment: environment,
            unsetEnvironment: unset, stdin: stdin, keepStdinOpen: keepStdinOpen,
            closeStdoutAfterLines: closeStdoutAfterLines)
    }

    func run(_ arguments: [String], lines: [String], closeStdoutAfterLines: Int? = nil) throws -> StageProcess.Result {
        let stdin = Array(lines.map { $0 + "\n" }.joined().utf8)
        return try start(arguments, stdin: stdin, closeStdoutAfterLines: closeStdoutAfterLines).wait(timeout: 60)
    }

    /// Regular files under <cache>/tmp.
    func temporaryFiles() throws -> [URL] { try files(under: cache.appendingPathComponent("tmp")) }

    /// Regular files under <cache>/images.
    func cachedImages() throws -> [URL] { try files(under: cache.appendingPathComponent("images")) }

    private func files(under folder: URL) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        return names.map { folder.appendingPathComponent($0) }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}

private func withWorld(_ body: (World) throws -> Void) throws {
    let server = try HTTPTestServer()
    defer { server.stop() }
    try withTemporaryDirectory { root in
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("cache"), withIntermediateDirectories: true)
        try body(World(server: server, root: root))
    }
}

/// A gif record as giphy-pages list writes it.
private func gifLine(id: String, url: String, rank: Int = 0, cacheKey: String? = nil) -> String {
    var line =
        #"{"kind":"gif","id":"\#(id)","title":"Spider \#(id)","query":"spiders","section":"spiders","rank":\#(rank),"#
        + #""rendition":"fixed_height","url":"\#(url)","width":1,"height":1,"frames":1"#
    if let cacheKey { line += #","cache_key":"\#(cacheKey)""# }
    return line + "}"
}

/// `images/<2 hex>/<64 hex>.gif` for a cache key (or URL).
private func cacheRelativePath(key: String) -> String {
    let hex = sha256Hex(Array(key.utf8))
    return "images/\(hex.prefix(2))/\(hex).gif"
}

/// The SHA-256 of `bytes` in hex (OpenSSL's, through Hashing).
func sha256Hex(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).hexString }
