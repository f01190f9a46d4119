// Direct tests of the RequestEngine: a small client (GETs of the paths that
// `req` records name) over libcurl against a real server on 127.0.0.1, the
// records going through a Stage over real pipes.

import Foundation
import RecordKit
import Testing
import TestSupport
@testable import NetKit
@testable import SposureKit

/// A job of the test client: the path it GETs, and the host the per-host
/// limit counts it under (the record's `host`, else 127.0.0.1).
final class PathJob: RequestJob {
    let path: String
    let record: JSONRecord
    init(sequence: Int, path: String, record: JSONRecord) {
        self.path = path
        self.record = record
        super.init(sequence: sequence, host: record.string("host") ?? "127.0.0.1")
    }
}

/// GETs `{"kind":"req","path":…}` records; writes `{"kind":"res","path":…,"status":…,"body":…}`
/// or the error record. Counts what the engine asks of it.
final class PathClient: RequestClient {
    let stage: Stage
    let server: HTTPTestServer
    let sequencer: OutputSequencer
    var engine: RequestEngine<PathClient>!
    var running = 0
    var mostRunning = 0
    var retries = 0
    var starts: [String] = []
    var pauseUntil: UInt64 = 0
    /// When set, only this path's jobs are paused (a budget of one API).
    var pausedPath: String?
    /// When set, a job's later attempts wait this many seconds at the gate (a rate limit met on a retry).
    var pauseRetries: Double?
    var stopOn: String?
    var interrupted: [Int] = []

    init(stage: Stage, server: HTTPTestServer, limits: RequestLimits, ordered: Bool = true) throws {
        self.stage = stage
        self.server = server
        sequencer = OutputSequencer(output: stage.output, ordered: ordered, window: 64)
        engine = try RequestEngine(stage: stage, sequencer: sequencer, client: self, limits: limits)
    }

    func admit(_ sequence: Int, _ input: InputRecord) -> PathJob? {
        guard input.record.kind == "req", let path = input.record.string("path") else {
            sequencer.emit(sequence, input.raw)
            return nil
        }
        return PathJob(sequence: sequence, path: path, record: input.record)
    }

    func gate(_ job: PathJob, now: UInt64) -> RequestGate {
        if let pauseRetries, job.attempts > 0 { return .pause(seconds: pauseRetries) }
        if now < pauseUntil, pausedPath == nil || pausedPath == job.path { return .pause(seconds: Double(pauseUntil - now) / 1e9) }
        return .start
    }

    func start(_ job: PathJob, on handle: RequestHandle) -> Result<MemoryTransfer, FetchFailure> {
        let transfer: MemoryTransfer
        switch MemoryTransfer.get(server.url(job.path), on: handle, tag: job.sequence, connectTimeout: 5, timeout: 20) {
        case .success(let made): transfer = made
        case .failure(let failure): return .failure(failure)
        }
        starts.append(job.path)
        running += 1
        mostRunning = max(mostRunning, running)
        return .success(transfer)
    }

    func complete(_ job: PathJob, _ transfer: MemoryTransfer, result: TransferResult, handle: RequestHandle) -> RequestCompletion {
        running -= 1
        let response = transfer.response(result)
        if let failure = response.failure { return .failed(failure) }
        if response.status >= 400 {
            if job.path == stopOn {
                emitError(job, FetchFailure("refused", "stop here"))
                return .stop(FetchFailure("not_run", "stopped by an earlier answer"))
            }
            return .failed(.http(response.status, url: server.url(job.path)))
        }
        let record = job.record.copy()
        record.set("kind", "res")
        record.set("status", response.status)
        record.set("body", String(decoding: response.body, as: UTF8.self))
        record.set("attempts", job.attempts)
        sequencer.emit(job.sequence, record.serialized())
        return .done
    }

    func fail(_ job: PathJob, _ failure: FetchFailure) { emitError(job, failure) }

    func interrupt(_ jobs: [PathJob], with failure: FetchFailure) {
        for job in jobs {
            interrupted.append(job.sequence)
            emitError(job, failure)
        }
    }

    private func emitError(_ job: PathJob, _ failure: FetchFailure) {
        let record = stage.makeError(job.record.copy(), code: failure.code, message: failure.message)
        record.set("attempts", job.attempts)
        sequencer.emit(job.sequence, record.serialized())
    }

    func noteRetry(_ job: PathJob, _ failure: FetchFailure, delay: Double) { retries += 1 }
    func progressLine(active: Int) -> String { "\(active) active" }
    func describe(_ job: PathJob) -> String { job.path }
}

/// Runs `client`'s engine over a stage reading `input`, returns the lines written and stderr.
private func runEngine(_ input: String, server: HTTPTestServer, limits: RequestLimits, ordered: Bool = true,
                       configure: (PathClient) -> Void = { _ in }) throws -> (lines: [String], client: PathClient) {
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    let stage = Stage(name: "engine-test", options: StageOptions(buffer: 16),
                      inputFD: stdin.fileHandleForReading.fileDescriptor,
                      outputFD: stdout.fileHandleForWriting.fileDescriptor,
                      errorFD: stderr.fileHandleForWriting.fileDescriptor)
    let client = try PathClient(stage: stage, server: server, limits: limits, ordered: ordered)
    configure(client)
    let feeder = Thread {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
    }
    feeder.start()
    stage.start(trapSignals: false)
    // Drain stdout as it comes, so a full pipe never blocks the writer.
    let collected = LockedBytes()
    let readerDone = DispatchSemaphore(value: 0)
    let reader = Thread {
        while case let data = stdout.fileHandleForReading.availableData, !data.isEmpty { collected.append(data) }
        readerDone.signal()
    }
    reader.start()
    client.engine.run()
    _ = stage.drain(failed: false)
    try stdout.fileHandleForWriting.close()
    try stderr.fileHandleForWriting.close()
    readerDone.wait()
    client.engine = nil
    let text = String(decoding: collected.bytes, as: UTF8.self)
    return (text.split(separator: "\n").map(String.init), client)
}

/// Bytes gathered by a reader thread.
private final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var bytes: Data { lock.withLock { data } }
}

private func req(_ path: String) -> String { #"{"kind":"req","path":"\#(path)"}"# + "\n" }

/// 200 with a text body, after `delay` seconds.
private func text(_ body: String, delay: Double = 0) -> HTTPTestServer.Response {
    HTTPTestServer.Response.ok(Array(body.utf8), contentType: "text/plain").delayed(delay)
}

/// Limits with a 10 ms backoff.
private func limits(_ concurrency: Int, perHost: Int? = nil, retries: Int? = nil, maxRetryAfter: Double? = nil,
                    maxTime: Double? = nil) -> RequestLimits {
    RequestLimits(concurrency: concurrency, perHost: perHost,
                  retry: RetryPolicy(retries: retries, maxRetryAfter: maxRetryAfter, backoff: Backoff(base: 0.01)), maxTime: maxTime)
}

/// Runs `body` with a fresh server whose `routes` are set.
private func withServer(_ routes: [String: HTTPTestServer.Response], _ body: (HTTPTestServer) throws -> Void) throws {
    let server = try HTTPTestServer()
    defer { server.stop() }
    for (path, response) in routes { server.route(path, response: response) }
    try body(server)
}

@Suite struct RequestEngineTests {
    /// Ordered: input order though the answers finish out of order (a record
    /// that is no request keeps its place); unordered: each as it finishes.
    @Test(arguments: [true, false])
    func answersComeOutInInputOrderOnlyWhenOrdered(ordered: Bool) throws {
        try withServer(["/slow": text("slow", delay: 0.5), "/fast": text("fast")]) { server in
            let input = req("/slow") + #"{"kind":"other","n":1}"# + "\n" + req("/fast")
            let (lines, _) = try runEngine(input, server: server, limits: limits(4), ordered: ordered)
            let slow = #"{"kind":"res","path":"/slow","status":200,"body":"slow","attempts":1}"#
            let other = #"{"kind":"other","n":1}"#
            let fast = #"{"kind":"res","path":"/fast","status":200,"body":"fast","attempts":1}"#
            #expect(lines == (ordered ? [slow, other, fast] : [other, fast, slow]))
        }
    }

    @Test func neverRunsMoreThanTheConcurrencyOrThePerHostLimit() throws {
        try withServer(["/a": text("a", delay: 0.05)]) { server in
            let input = String(repeating: req("/a"), count: 12)
            let (lines, client) = try runEngine(input, server: server, limits: limits(6, perHost: 2))
            #expect(lines.count == 12)
            #expect(lines.allSatisfy { $0.contains(#""status":200"#) })
            #expect(client.mostRunning == 2, "the per-host limit, under the concurrency")
            // Two hosts of 2 each, under a concurrency of 3.
            let twoHosts = (0..<12).map { #"{"kind":"req","path":"/a","host":"\#($0 % 2 == 0 ? "a" : "b")"}"# + "\n" }.joined()
            let (both, bothClient) = try runEngine(twoHosts, server: server, limits: limits(3, perHost: 2))
            #expect(both.count == 12)
            #expect(bothClient.mostRunning == 3, "the concurrency, under two hosts' limits")
        }
    }

    @Test func retriesATransientFailureAndCountsTheAttempts() throws {
        try withServer([:]) { server in
            server.route("/flaky", HTTPTestServer.failing(times: 2, status: 503, then: Array("ok".utf8)))
            let (lines, client) = try runEngine(req("/flaky"), server: server, limits: limits(2, retries: 3))
            #expect(lines == [#"{"kind":"res","path":"/flaky","status":200,"body":"ok","attempts":3}"#])
            #expect(client.retries == 2)
            #expect(server.requestCount(for: "/flaky") == 3)
        }
    }

    @Test func givesUpAfterTheRetriesAndNeverRetriesAPermanentFailure() throws {
        try withServer(["/down": .status(503), "/gone": .status(404)]) { server in
            let (lines, client) = try runEngine(req("/down") + req("/gone"), server: server, limits: limits(2, retries: 1))
            #expect(lines.count == 2)
            #expect(lines[0].contains(#""code":"http_503""#) && lines[0].contains(#""attempts":2"#))
            #expect(lines[1].contains(#""code":"http_404""#) && lines[1].contains(#""attempts":1"#))
            #expect(client.retries == 1)
            #expect(server.requestCount(for: "/gone") == 1)
        }
    }

    @Test func honoursRetryAfterAndFailsAtOnceWhenItAsksTooMuch() throws {
        let never = HTTPTestServer.Response(status: 429, headers: [("Retry-After", "3600")], body: [])
        try withServer(["/never": never]) { server in
            let calls = Counter()
            server.route("/later") { _ in
                calls.next() == 0 ? HTTPTestServer.Response(status: 429, headers: [("Retry-After", "1")], body: []) : text("now")
            }
            let started = monotonicSeconds()
            let (lines, _) = try runEngine(req("/later") + req("/never"), server: server,
                                           limits: limits(2, retries: 3, maxRetryAfter: 60))
            #expect(lines[0] == #"{"kind":"res","path":"/later","status":200,"body":"now","attempts":2}"#)
            #expect(lines[1].contains(#""code":"rate_limited""#) && lines[1].contains(#""attempts":1"#))
            // The server's second, not the 10 ms backoff.
            #expect(monotonicSeconds() - started >= 0.9)
        }
    }

    /// Review fix: a server's Retry-After of billions of seconds overflowed
    /// the nanosecond clock and crashed the stage; it is bounded, and past
    /// the record's deadline the failure comes at once.
    @Test func anAbsurdRetryAfterIsBoundedNotACrash() throws {
        try withServer(["/later": HTTPTestServer.Response(status: 429, headers: [("Retry-After", "99999999999")], body: [])]) { server in
            let (lines, _) = try runEngine(req("/later"), server: server, limits: limits(1, maxTime: 5))
            #expect(lines.count == 1)
            #expect(lines.first?.contains(#""code":"rate_limited""#) == true)
            #expect(server.requestCount(for: "/later") == 1)
        }
    }

    /// Defect 4 of "Hostile input, third pass": a record's deadline
    /// (`--max-time`) covered only attempts in flight, so a job whose retry
    /// waited at the gate (a spent call budget) waited past it, and its next
    /// attempt spent another call. Past the deadline between attempts, the
    /// record is a `timeout` error at once, with no further attempt.
    @Test func aDeadlineEndsAJobThatWaitsBetweenAttempts() throws {
        try withServer(["/down": .status(503)]) { server in
            let (lines, client) = try runEngine(req("/down"), server: server, limits: limits(1, retries: 1, maxTime: 1)) {
                $0.pauseRetries = 30
            }
            #expect(lines.count == 1)
            #expect(lines.first?.contains(#""code":"timeout""#) == true, "\(lines)")
            #expect(lines.first?.contains("--max-time 1s") == true, "\(lines)")
            #expect(server.requestCount(for: "/down") == 1, "no attempt after the deadline")
            #expect(client.starts == ["/down"])
        }
    }

    /// A paused gate starts nothing until it opens; the pause is the paused
    /// job's: the jobs behind it that the gate lets through start meanwhile
    /// (it held every job back).
    @Test(arguments: [false, true])
    func aPausedJobWaitsAndDoesNotHoldBackTheJobsBehindIt(onlyA: Bool) throws {
        try withServer(["/a": text("a"), "/b": text("b")]) { server in
            let started = monotonicNanoseconds()
            let (lines, client) = try runEngine(req("/a") + req("/b"), server: server, limits: limits(2)) {
                $0.pauseUntil = started + 400_000_000
                $0.pausedPath = onlyA ? "/a" : nil
            }
            if onlyA { #expect(client.starts == ["/b", "/a"], "/b went while /a waited") }
            #expect(lines.count == 2)
            #expect(lines[0].contains(#""path":"/a""#) && lines[0].contains(#""kind":"res""#), "output keeps input order")
            #expect(monotonicNanoseconds() - started >= 400_000_000)
            #expect(server.requests.count == 2)
        }
    }

    @Test func aStoppingAnswerInterruptsEveryOtherRecordWithItsFailure() throws {
        try withServer(["/refuse": .status(401), "/slow": text("s", delay: 2)]) { server in
            let input = req("/refuse") + req("/slow") + req("/slow") + req("/slow")
            let (lines, client) = try runEngine(input, server: server, limits: limits(2)) { $0.stopOn = "/refuse" }
            #expect(lines.count == 4)
            #expect(lines[0].contains(#""code":"refused""#))
            #expect(lines.dropFirst().allSatisfy { $0.contains(#""code":"not_run""#) })
            #expect(client.interrupted == [1, 2, 3])
        }
    }

    @Test func aStopRequestGivesEveryRecordReadItsLine() throws {
        try withServer(["/slow": text("s", delay: 5)]) { server in
            let (lines, client) = try runEngine(String(repeating: req("/slow"), count: 5), server: server, limits: limits(2)) { client in
                let stage = client.stage
                Thread {
                    _ = server.wait(timeout: 10) { server.requests.count >= 2 }
                    stage.requestStop(.signal(SIGTERM))
                }.start()
            }
            #expect(lines.count == 5)
            #expect(lines.allSatisfy { $0.contains(#""code":"interrupted""#) })
            #expect(client.interrupted == [0, 1, 2, 3, 4])
        }
    }
}

@Suite struct RetryPolicyTests {
    @Test func stopsAfterTheRetries() {
        let policy = RetryPolicy(retries: 2, backoff: Backoff(base: 1, cap: 30))
        #expect(policy.delay(attempts: 1, waited: 0, retryAfter: 0) != nil)
        #expect(policy.delay(attempts: 2, waited: 0, retryAfter: 0) != nil)
        #expect(policy.delay(attempts: 3, waited: 0, retryAfter: 0) == nil)
    }

    @Test func takesTheServersDelayUpToItsLimit() {
        let policy = RetryPolicy(maxRetryAfter: 60, backoff: Backoff(base: 1))
        #expect(policy.delay(attempts: 1, waited: 0, retryAfter: 60) == 60)
        #expect(policy.delay(attempts: 1, waited: 0, retryAfter: 61) == nil)
    }

    @Test func boundsTheWaitOfAJobInAll() {
        let policy = RetryPolicy(maxWait: 10, backoff: Backoff(base: 1))
        #expect(policy.delay(attempts: 1, waited: 5, retryAfter: 5) == 5)
        #expect(policy.delay(attempts: 1, waited: 5.5, retryAfter: 5) == nil)
    }

    @Test func jittersBetweenHalfAndAllOfTheBackoff() {
        let policy = RetryPolicy(backoff: Backoff(base: 2, cap: 30))
        for attempt in 1...6 {
            let delay = policy.delay(attempts: attempt, waited: 0, retryAfter: 0) ?? -1
            let full = min(30, 2 * Double(1 << (attempt - 1)))
            #expect(delay >= full / 2 && delay <= full)
        }
    }
}

/// A thread-safe counter for server handlers.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
}
