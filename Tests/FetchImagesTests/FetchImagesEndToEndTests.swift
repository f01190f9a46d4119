// End-to-end tests of the built `fetch-images` binary, run over real pipes
// against a real HTTP server on 127.0.0.1 (TestSupport's HTTPTestServer).
// Each test gets a fresh server and a fresh temporary cache; the child is
// killed after a generous safety timeout, and that fails the test.
//
// The contract under test is docs/fetch-images-spec.md.

import Foundation
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
                try expectImage(try OutputRecord(result.stdoutLines[index]), from: try OutputRecord(input[index]),
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

    // MARK: - HTTP failures and retries

    @Test func serverErrorIsRetriedAndThenSucceeds() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 1000, seed: 9)
            world.server.route("/flaky.gif", HTTPTestServer.failing(times: 2, status: 500, then: gif))
            let input = [gifLine(id: "flaky", url: world.server.url("/flaky.gif"))]
            let result = try world.run(["--quiet", "--retries", "3", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 0)
            try #require(result.stdoutLines.count == 1)
            let record = try OutputRecord(result.stdoutLines[0])
            try expectImage(record, from: try OutputRecord(input[0]), served: gif, cache: world.cache)
            #expect(record.raw("http_status") == "200")
            #expect(record.raw("cached") == "false")
            #expect(world.server.requestCount(for: "/flaky.gif") == 3)
        }
    }

    @Test func serverErrorThatPersistsBecomesHTTP500AfterRetries() throws {
        try withWorld { world in
            world.server.route("/down.gif", response: .status(500))
            let input = [gifLine(id: "down", url: world.server.url("/down.gif"))]
            let result = try world.run(["--quiet", "--retries", "2", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "http_500", from: try OutputRecord(input[0]))
            #expect(world.server.requestCount(for: "/down.gif") == 3)
        }
    }

    @Test func tooManyRequestsBecomesRateLimitedAfterRetries() throws {
        try withWorld { world in
            world.server.route("/busy.gif", response: .status(429))
            let input = [gifLine(id: "busy", url: world.server.url("/busy.gif"))]
            let result = try world.run(["--quiet", "--retries", "1", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "rate_limited", from: try OutputRecord(input[0]))
            #expect(world.server.requestCount(for: "/busy.gif") == 2)
        }
    }

    @Test func refusedConnectionBecomesConnect() throws {
        try withWorld { world in
            // A port that was free a moment ago: nothing listens there now.
            let closed = try HTTPTestServer()
            let port = closed.port
            closed.stop()
            let input = [gifLine(id: "refused", url: "http://127.0.0.1:\(port)/x.gif")]
            let result = try world.run(["--quiet", "--retries", "1", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "connect", from: try OutputRecord(input[0]))
        }
    }

    @Test func bodyCutShortBecomesTruncatedAfterRetries() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 20_000, seed: 2)
            world.server.route("/cut.gif", response: HTTPTestServer.Response.ok(gif).cut(afterBodyBytes: 5_000))
            let input = [gifLine(id: "cut", url: world.server.url("/cut.gif"))]
            let result = try world.run(["--quiet", "--retries", "2", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "truncated", from: try OutputRecord(input[0]))
            #expect(world.server.requestCount(for: "/cut.gif") == 3)
            #expect(try world.cachedImages().isEmpty)
            #expect(try world.temporaryFiles().isEmpty)
        }
    }

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
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "too_large", from: try OutputRecord(input[0]))
            world.server.stop()  // joins the connection threads, so the counters are final
            #expect(world.server.requestCount(for: "/big.gif") == 1)
            #expect(world.server.fullySentCount(for: "/big.gif") == 0)
            #expect(try world.cachedImages().isEmpty)
            #expect(try world.temporaryFiles().isEmpty)
        }
    }

    @Test func stalledBodyBecomesTimeout() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 50_000, seed: 5)
            world.server.route("/stall.gif", response: HTTPTestServer.Response.ok(gif).stalled(afterBodyBytes: 1_000))
            let input = [gifLine(id: "stall", url: world.server.url("/stall.gif"))]
            let result = try world.run(
                ["--quiet", "--low-speed-time", "1s", "--retries", "1", "--retry-delay", "10ms"], lines: input)

            #expect(!result.timedOut)
            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 1)
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "timeout", from: try OutputRecord(input[0]))
            #expect(world.server.requestCount(for: "/stall.gif") == 2)
            #expect(try world.cachedImages().isEmpty)
            #expect(try world.temporaryFiles().isEmpty)
        }
    }

    /// Regression (issue 16 #2): a server that sends headers and stalls held
    /// the ordered stream for 4 × 30 s; now the record has a total deadline
    /// (--max-time), its error goes out then, and the records after it follow.
    @Test func aStalledRecordAtTheHeadHoldsTheOthersNoLongerThanMaxTime() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 400, seed: 2)
            world.server.route("/stall.gif", response: HTTPTestServer.Response.ok(gif).stalled(afterBodyBytes: 0))
            var input = [gifLine(id: "stall", url: world.server.url("/stall.gif"))]
            for n in 0..<3 {
                world.server.route("/ok\(n).gif", response: .ok(gif))
                input.append(gifLine(id: "ok\(n)", url: world.server.url("/ok\(n).gif"), rank: n + 1))
            }
            let result = try world.run(["--quiet", "--max-time", "1s", "--low-speed-time", "60s"], lines: input)

            #expect(!result.timedOut)
            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 4)
            let late = try OutputRecord(result.stdoutLines[0])
            try expectError(late, code: "timeout", from: try OutputRecord(input[0]))
            #expect(late.string("error") == "not done within --max-time 1s (retries included)")
            for line in result.stdoutLines.dropFirst() { #expect(try OutputRecord(line).raw("kind") == "\"image\"") }
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

    /// Regression (issue 16 #5): a `file://` URL naming a FIFO blocked the
    /// stage forever in open(); the records already done never came out.
    @Test func aFIFOIsNotOpenedAndTheRunGoesOn() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 500, seed: 8)
            let file = try world.writeSourceFile("ok.gif", gif)
            let fifo = file.deletingLastPathComponent().appendingPathComponent("pipe.gif")
            #expect(mkfifo(fifo.path, 0o644) == 0)
            let input = [gifLine(id: "fifo", url: fifo.absoluteString), gifLine(id: "ok", url: file.absoluteString, rank: 1)]
            let result = try world.run(["--quiet", "--allow-file"], lines: input)

            #expect(!result.timedOut)
            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 2)
            let refused = try OutputRecord(result.stdoutLines[0])
            try expectError(refused, code: "not_gif", from: try OutputRecord(input[0]))
            #expect(refused.string("error")?.hasSuffix("is a FIFO, not a GIF file (it is not read)") == true)
            try expectImage(try OutputRecord(result.stdoutLines[1]), from: try OutputRecord(input[1]), served: gif, cache: world.cache)
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

    /// Regression (issue 16 #1): after a redirect to a refused scheme, the
    /// reused easy handle refused every later option ("A libcurl function was
    /// given a bad argument"), so the rest of the run failed. Only that record may.
    @Test func aRedirectToARefusedSchemeFailsOnlyItsOwnRecord() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 300, seed: 9)
            world.server.route("/evil", response: .redirect(to: "file:///etc/passwd"))
            var input = [gifLine(id: "evil", url: world.server.url("/evil"))]
            for n in 0..<200 {
                world.server.route("/g\(n).gif", response: .ok(gif))
                input.append(gifLine(id: "g\(n)", url: world.server.url("/g\(n).gif")))
            }
            let result = try world.run(["--quiet", "--concurrency", "1", "--retry-delay", "10ms"], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 201)
            try expectError(try OutputRecord(result.stdoutLines[0]), code: "not_allowed", from: try OutputRecord(input[0]))
            let images = try result.stdoutLines.dropFirst().map { try OutputRecord($0) }
            #expect(images.filter { $0.raw("kind") == "\"image\"" }.count == 200)
        }
    }

    /// `--verbose` traces requests, answers, retries and cache hits, with
    /// `api_key` masked (issue 16 #12).
    @Test func verboseTracesRequestsAnswersRetriesAndCacheHits() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 300, seed: 4)
            world.server.route("/a.gif", HTTPTestServer.failing(times: 1, status: 503, then: gif))
            let input = [gifLine(id: "a", url: world.server.url("/a.gif?api_key=sekrit123"))]
            let first = try world.run(["--verbose", "--retry-delay", "10ms"], lines: input)
            let second = try world.run(["--verbose"], lines: input)

            #expect(first.exitCode == 0 && second.exitCode == 0)
            let traces = first.stderr.split(separator: "\n").filter { $0.contains("· ") }
            #expect(traces.count == 5, "\(traces)")
            #expect(traces.first?.hasSuffix("· GET \(world.server.url("/a.gif?api_key=REDACTED"))") == true)
            #expect(traces.contains { $0.contains("· HTTP 503 in ") })
            #expect(traces.contains { $0.contains("· http_503: retry in ") })
            #expect(traces.contains { $0.contains("· GET ") && $0.hasSuffix("(attempt 2)") })
            #expect(traces.contains { $0.contains("· HTTP 200 in ") })
            #expect(second.stderr.contains("· cached: \(world.server.url("/a.gif?api_key=REDACTED"))"))
            #expect(!(first.stderr + second.stderr).contains("sekrit123"))
            // Without --verbose, nothing of the kind.
            #expect(!(try world.run([], lines: input)).stderr.contains("· "))
        }
    }

    // MARK: - Schemes

    // MARK: - The stream

    @Test func orderedOutputFollowsInputEvenWhenTheFirstTransferIsSlow() throws {
        try withWorld { world in
            let (input, ids) = slowFirstInput(world)
            let result = try world.run(["--quiet", "--ordered", "--concurrency", "4"], lines: input)

            #expect(result.exitCode == 0)
            let got = try result.stdoutLines.map { try OutputRecord($0).string("id") ?? "?" }
            #expect(got == ids)
            #expect(try result.stdoutLines.allSatisfy { try OutputRecord($0).string("kind") == "image" })
        }
    }

    @Test func unorderedOutputComesAsTransfersFinish() throws {
        try withWorld { world in
            let (input, ids) = slowFirstInput(world)
            let result = try world.run(["--quiet", "--unordered", "--concurrency", "4"], lines: input)

            #expect(result.exitCode == 0)
            let got = try result.stdoutLines.map { try OutputRecord($0).string("id") ?? "?" }
            #expect(got.sorted() == ids.sorted())
            #expect(got.last == "slow")
        }
    }

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

    @Test func interruptMidRunEmitsInterruptedRecordsAndCleansUp() throws {
        try interruptMidRun(signal: SIGINT, expectedStatus: 130)
    }

    @Test func terminateMidRunEmitsInterruptedRecordsAndCleansUp() throws {
        try interruptMidRun(signal: SIGTERM, expectedStatus: 143)
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
                let record = try OutputRecord(line)
                #expect(record.string("id") == "g\(index)")
                #expect(record.string("kind") == "error")
                guard record.string("id") == "g\(index)" else { break }
            }
        }
    }

    // MARK: - The cache

    @Test func secondRunIsServedFromTheCacheWithoutRequests() throws {
        try withWorld { world in
            let gifs = [TestGIF.onePixel, TestGIF.padded(toSize: 4000, seed: 11)]
            world.server.route("/a.gif", response: .ok(gifs[0]))
            world.server.route("/b.gif", response: .ok(gifs[1]))
            let input = [
                gifLine(id: "a", url: world.server.url("/a.gif")),
                gifLine(id: "b", url: world.server.url("/b.gif"), rank: 1),
            ]
            let first = try world.run(["--quiet"], lines: input)
            #expect(first.exitCode == 0)
            #expect(world.server.requestCount == 2)

            let second = try world.run(["--quiet"], lines: input)
            #expect(second.exitCode == 0)
            #expect(world.server.requestCount == 2)
            try #require(first.stdoutLines.count == 2 && second.stdoutLines.count == 2)
            for index in 0..<2 {
                let before = try OutputRecord(first.stdoutLines[index])
                let after = try OutputRecord(second.stdoutLines[index])
                try expectImage(after, from: try OutputRecord(input[index]), served: gifs[index], cache: world.cache)
                #expect(after.raw("cached") == "true")
                #expect(after.raw("http_status") == "null")
                #expect(after.string("path") == before.string("path"))
                #expect(after.string("sha256") == before.string("sha256"))
            }
        }
    }

    @Test func refreshFetchesAgainEvenWhenCached() throws {
        try withWorld { world in
            world.server.route("/a.gif", response: .ok(TestGIF.onePixel))
            let input = [gifLine(id: "a", url: world.server.url("/a.gif"))]
            _ = try world.run(["--quiet"], lines: input)
            let again = try world.run(["--quiet", "--refresh"], lines: input)

            #expect(again.exitCode == 0)
            #expect(world.server.requestCount == 2)
            try #require(again.stdoutLines.count == 1)
            let record = try OutputRecord(again.stdoutLines[0])
            #expect(record.raw("cached") == "false")
            #expect(record.raw("http_status") == "200")
        }
    }

    @Test func recordsWithTheSameKeyInOneRunShareOneTransfer() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 300, seed: 12)
            world.server.route("/k1.gif", response: .ok(gif))
            world.server.route("/k2.gif", response: .ok(gif))
            world.server.route("/dup.gif", response: .ok(TestGIF.onePixel))
            let input = [
                gifLine(id: "x", url: world.server.url("/k1.gif"), cacheKey: "same-key"),
                gifLine(id: "y", url: world.server.url("/k2.gif"), rank: 1, cacheKey: "same-key"),
                gifLine(id: "d1", url: world.server.url("/dup.gif"), rank: 2),
                gifLine(id: "d2", url: world.server.url("/dup.gif"), rank: 3),
            ]
            let result = try world.run(["--quiet", "--concurrency", "4"], lines: input)

            #expect(result.exitCode == 0)
            try #require(result.stdoutLines.count == 4)
            let records = try result.stdoutLines.map(OutputRecord.init)
            #expect(records.map { $0.string("id") } == ["x", "y", "d1", "d2"])
            #expect(records.allSatisfy { $0.string("kind") == "image" })
            #expect(world.server.requestCount(for: "/k1.gif") + world.server.requestCount(for: "/k2.gif") == 1)
            #expect(world.server.requestCount(for: "/dup.gif") == 1)

            let keyed = world.cache.appendingPathComponent(cacheRelativePath(key: "same-key")).path
            #expect(records[0].string("path") == keyed)
            #expect(records[1].string("path") == keyed)
            #expect(Set([records[0].raw("cached"), records[1].raw("cached")]) == ["false", "true"])
            #expect(Set([records[2].raw("cached"), records[3].raw("cached")]) == ["false", "true"])
            #expect(records[2].string("path") == records[3].string("path"))
        }
    }

    // MARK: - The command line

    /// Issue 29 #10: a 404 was fetched again every round. The next run's
    /// record is the same error, said remembered, without a request; a
    /// 5xx is not remembered; --retry-failed asks again.
    @Test func issue29_10_aURLThatFailedForGoodIsNotFetchedAgainForADay() throws {
        try withWorld { world in
            world.server.route("/gone.gif", response: .status(404))
            world.server.route("/busy.gif", response: .status(503))
            let lines = [#"{"kind":"gif","id":"g","url":"\#(world.server.url("/gone.gif"))"}"#,
                         #"{"kind":"gif","id":"b","url":"\#(world.server.url("/busy.gif"))"}"#]
            let first = try world.run(["--retries", "0"], lines: lines)
            #expect(first.exitCode == 1)
            #expect(!first.stdoutLines[0].contains("remembered"))
            let second = try world.run(["--retries", "0"], lines: lines)
            #expect(second.exitCode == 1)
            #expect(world.server.requestCount(for: "/gone.gif") == 1 && world.server.requestCount(for: "/busy.gif") == 2)
            let line = second.stdoutLines[0]
            let start = try #require(line.range(of: #""remembered":""#))
            let when = String(line[start.upperBound...].prefix(20))
            #expect(when.hasSuffix("Z") && when.dropFirst(10).hasPrefix("T"), "\(line)")
            #expect(line.hasPrefix(#"{"kind":"error","id":"g","url":"\#(world.server.url("/gone.gif"))","stage":"fetch-images","code":"http_404","error":"HTTP 404 from \#(world.server.url("/gone.gif")) (remembered from \#(when): not fetched again for a day; fetch-images --retry-failed fetches it)","ms":"#), "\(line)")
            #expect(line.hasSuffix(#","remembered":"\#(when)"}"#), "\(line)")
            #expect(second.stderr.contains("stdin:1: http_404: HTTP 404 from \(world.server.url("/gone.gif")) (remembered from \(when)"), "\(second.stderr)")
            #expect(!second.stdoutLines[1].contains("remembered"), "a 503 is asked again")
            let retried = try world.run(["--retries", "0", "--retry-failed"], lines: lines)
            #expect(retried.exitCode == 1 && !retried.stdoutLines[0].contains("remembered"))
            #expect(world.server.requestCount(for: "/gone.gif") == 2)
        }
    }

    /// Regression (issue 16 #7): a cache that cannot be written was fatal
    /// ("cannot write to …/tmp", no records) even when every image was in it.
    /// Hits are served; only a record that needs a download fails.
    @Test func aCacheThatCannotBeWrittenServesItsHits() throws {
        try withWorld { world in
            let gif = TestGIF.padded(toSize: 600, seed: 3)
            world.server.route("/a.gif", response: .ok(gif))
            world.server.route("/b.gif", response: .ok(gif))
            let cached = gifLine(id: "a", url: world.server.url("/a.gif"))
            #expect(try world.run(["--quiet"], lines: [cached]).exitCode == 0)
            // The temporary folder becomes a link to nowhere: nothing can be
            // written there, whoever runs the test (root ignores permissions).
            let temporary = world.cache.path + "/tmp"
            try FileManager.default.removeItem(atPath: temporary)
            try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: world.cache.path + "/gone/tmp")

            let input = [cached, gifLine(id: "b", url: world.server.url("/b.gif"), rank: 1)]
            let result = try world.run([], lines: input)

            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 2)
            let hit = try OutputRecord(result.stdoutLines[0])
            try expectImage(hit, from: try OutputRecord(input[0]), served: gif, cache: world.cache)
            #expect(hit.raw("cached") == "true")
            try expectError(try OutputRecord(result.stdoutLines[1]), code: "cache_write", from: try OutputRecord(input[1]))
            #expect(world.server.requestCount(for: "/b.gif") == 0)
            #expect(result.stderr.contains("serving cached images only"))
        }
    }

    @Test func unusableCacheIsFatal() throws {
        try withWorld { world in
            world.server.route("/a.gif", response: .ok(TestGIF.onePixel))
            let notAFolder = try world.writeSourceFile("not-a-folder", Array("plain file".utf8))
            let stage = try StageProcess(
                "fetch-images", arguments: ["--cache", notAFolder.path, "--quiet"], environment: world.environment,
                unsetEnvironment: world.unset,
                stdin: Array((gifLine(id: "a", url: world.server.url("/a.gif")) + "\n").utf8))
            let result = stage.wait(timeout: 60)

            #expect(result.exitCode == 2, "\(result)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test func sha256HelperMatchesKnownDigests() {
        #expect(sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    // MARK: - Shared scenarios

    /// A slow first URL followed by four fast ones.
    private func slowFirstInput(_ world: World) -> (lines: [String], ids: [String]) {
        world.server.route("/slow.gif", response: HTTPTestServer.Response.ok(TestGIF.onePixel).delayed(1.5))
        var lines = [gifLine(id: "slow", url: world.server.url("/slow.gif"))]
        var ids = ["slow"]
        for index in 1...4 {
            world.server.route("/f\(index).gif", response: .ok(TestGIF.padded(toSize: 50 + index, seed: UInt8(index))))
            lines.append(gifLine(id: "f\(index)", url: world.server.url("/f\(index).gif"), rank: index))
            ids.append("f\(index)")
        }
        return (lines, ids)
    }

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
                let record = try OutputRecord(line)
                let source = try OutputRecord(input[index])
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
        _ record: OutputRecord, from source: OutputRecord, served: [UInt8], cache: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(record.string("kind") == "image", "\(record.line)", sourceLocation: sourceLocation)
        #expect(
            record.keys == source.keys + ["path", "bytes", "sha256", "cached", "http_status", "ms"],
            sourceLocation: sourceLocation)
        for key in source.keys where key != "kind" {
            #expect(record.sameValue(key, as: source), "field \(key) changed", sourceLocation: sourceLocation)
        }
        let key = source.string("cache_key") ?? source.string("url") ?? ""
        let expectedPath = cache.appendingPathComponent(cacheRelativePath(key: key)).path
        let path = try #require(record.string("path"), sourceLocation: sourceLocation)
        #expect(path == expectedPath, sourceLocation: sourceLocation)
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(stored == served, "cached file differs from what was served", sourceLocation: sourceLocation)
        #expect(record.raw("bytes") == "\(served.count)", sourceLocation: sourceLocation)
        #expect(record.string("sha256") == sha256Hex(served), sourceLocation: sourceLocation)
        #expect(["true", "false"].contains(record.raw("cached") ?? ""), sourceLocation: sourceLocation)
        let status = record.raw("http_status") ?? ""
        #expect(status == "null" || Int(status) != nil, sourceLocation: sourceLocation)
        let ms = Int(record.raw("ms") ?? "")
        #expect((ms ?? -1) >= 0, "ms: \(record.raw("ms") ?? "missing")", sourceLocation: sourceLocation)
    }

    /// Checks an error record: the input's fields first and in order, then stage, code and a message.
    private func expectError(
        _ record: OutputRecord, code: String, from source: OutputRecord,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(record.string("kind") == "error", "\(record.line)", sourceLocation: sourceLocation)
        #expect(record.string("code") == code, "\(record.line)", sourceLocation: sourceLocation)
        #expect(record.string("stage") == "fetch-images", sourceLocation: sourceLocation)
        #expect(!(record.string("error") ?? "").isEmpty, "no error message", sourceLocation: sourceLocation)
        #expect(record.keys.starts(with: source.keys), "input fields not kept in order", sourceLocation: sourceLocation)
        for key in source.keys where key != "kind" {
            #expect(record.sameValue(key, as: source), "field \(key) changed", sourceLocation: sourceLocation)
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

    func run(_ arguments: [String], stdin: [UInt8], closeStdoutAfterLines: Int? = nil) throws -> StageProcess.Result {
        try start(arguments, stdin: stdin, closeStdoutAfterLines: closeStdoutAfterLines).wait(timeout: 60)
    }

    func run(_ arguments: [String], lines: [String], closeStdoutAfterLines: Int? = nil) throws -> StageProcess.Result {
        try run(arguments, stdin: Array(lines.map { $0 + "\n" }.joined().utf8), closeStdoutAfterLines: closeStdoutAfterLines)
    }

    /// Writes a file outside the cache, for file:// URLs.
    func writeSourceFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let folder = root.appendingPathComponent("source", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
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

// MARK: - Reading output records

/// One output line: its top-level fields in order, with each value's raw JSON text.
private struct OutputRecord {
    struct Malformed: Error, CustomStringConvertible {
        var line: String
        var description: String { "not a JSON object: \(line)" }
    }

    let line: String
    let fields: [(key: String, raw: String)]
    let object: [String: Any]

    init(_ line: String) throws {
        self.line = line
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let fields = topLevelFields(line)
        else { throw Malformed(line: line) }
        self.object = object
        self.fields = fields
    }

    var keys: [String] { fields.map(\.key) }

    /// The raw JSON text of a field's value (`"abc"`, `12`, `null`, `{…}`).
    func raw(_ key: String) -> String? { fields.first { $0.key == key }?.raw }

    func string(_ key: String) -> String? { object[key] as? String }

    /// Whether a field holds the same JSON value here as in `other`.
    func sameValue(_ key: String, as other: OutputRecord) -> Bool {
        guard let mine = object[key], let theirs = other.object[key] else { return false }
        func canonical(_ value: Any) -> Data? {
            try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        }
        return canonical(mine) != nil && canonical(mine) == canonical(theirs)
    }
}

/// Splits a JSON object's text into its top-level keys and raw values, in order.
private func topLevelFields(_ text: String) -> [(key: String, raw: String)]? {
    let chars = Array(text.unicodeScalars)
    var index = 0
    func skipSpace() { while index < chars.count, [" ", "\t", "\r", "\n"].contains(chars[index]) { index += 1 } }
    func scanString() -> Bool {
        guard index < chars.count, chars[index] == "\"" else { return false }
        index += 1
        while index < chars.count {
            if chars[index] == "\\" { index += 2; continue }
            if chars[index] == "\"" { index += 1; return true }
            index += 1
        }
        return false
    }
    func scanValue() -> Bool {
        guard index < chars.count else { return false }
        if chars[index] == "\"" { return scanString() }
        if chars[index] == "{" || chars[index] == "[" {
            var depth = 0
            while index < chars.count {
                let c = chars[index]
                if c == "\"" {
                    if !scanString() { return false }
                    continue
                }
                if c == "{" || c == "[" { depth += 1 }
                if c == "}" || c == "]" {
                    depth -= 1
                    if depth == 0 { index += 1; return true }
                }
                index += 1
            }
            return false
        }
        while index < chars.count, ![",", "}", " ", "\t", "\r", "\n"].contains(chars[index]) { index += 1 }
        return true
    }
    func slice(_ from: Int, _ to: Int) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: chars[from..<to])
        return String(s)
    }

    var fields: [(key: String, raw: String)] = []
    skipSpace()
    guard index < chars.count, chars[index] == "{" else { return nil }
    index += 1
    skipSpace()
    if index < chars.count, chars[index] == "}" { return fields }
    while true {
        skipSpace()
        let keyStart = index
        guard scanString() else { return nil }
        let keyText = slice(keyStart, index)
        guard let key = try? JSONSerialization.jsonObject(with: Data(keyText.utf8), options: .fragmentsAllowed) as? String
        else { return nil }
        skipSpace()
        guard index < chars.count, chars[index] == ":" else { return nil }
        index += 1
        skipSpace()
        let valueStart = index
        guard scanValue() else { return nil }
        fields.append((key, slice(valueStart, index)))
        skipSpace()
        guard index < chars.count else { return nil }
        if chars[index] == "," { index += 1; continue }
        if chars[index] == "}" { return fields }
        return nil
    }
}

// MARK: - SHA-256

/// SHA-256 of `message` as lowercase hex (FIPS 180-4), to check the `sha256` field and cache names.
func sha256Hex(_ message: [UInt8]) -> String {
    let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
    var h: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    var data = message
    let bitLength = UInt64(message.count) * 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

    var w = [UInt32](repeating: 0, count: 64)
    for chunk in stride(from: 0, to: data.count, by: 64) {
        for i in 0..<16 {
            let j = chunk + 4 * i
            w[i] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        for (i, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ value }
    }
    return h.map { word in
        let hex = String(word, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }.joined()
}
