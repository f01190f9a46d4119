// A real HTTP/1.1 server on 127.0.0.1 for end-to-end tests, over POSIX sockets.
//
//   accept thread ──accept4──▶ connection thread (one per connection)
//        │                        │  read request head (+ Content-Length body)
//        │                        │  count it, call the route's closure
//        │                        │  write the response (or delay / stall / cut it)
//        │                        └─ loop while keep-alive, else close
//        └─ poll(100 ms) so `stop()` is seen; `stop()` also shuts every
//           connection down, then joins the accept and connection threads.
//
// The server never crashes on a client that goes away: sends use MSG_NOSIGNAL,
// every socket is close-on-exec (so spawned children never hold one open), and
// reads are bounded.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 whose routes are closures, for tests.
public final class HTTPTestServer: @unchecked Sendable {

    /// One parsed HTTP request.
    public struct Request: Sendable {
        /// The method, as sent (`GET`, `HEAD`, …).
        public var method: String
        /// The request target as sent, path and query.
        public var target: String
        /// The path, without the query string.
        public var path: String
        /// The query string without its `?`, or nil when there was none.
        public var query: String?
        /// The header fields in the order they came.
        public var headers: [(name: String, value: String)]
        /// The request body (read by Content-Length).
        public var body: [UInt8]
        /// The HTTP version from the request line (`HTTP/1.1`).
        public var version: String

        /// The first value of a header, matched case-insensitively.
        public func header(_ name: String) -> String? {
            let lower = name.lowercased()
            return headers.first { $0.name.lowercased() == lower }?.value
        }
    }

    /// What the server sends back, and how.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Extra header fields. Content-Length is added unless given here.
        public var headers: [(name: String, value: String)]
        /// The body.
        public var body: [UInt8]
        /// Seconds to wait before sending anything.
        public var delayBeforeHeaders: Double = 0
        /// Send the headers and this many body bytes, then hang until the
        /// client goes away or the server stops.
        public var stallAfterHeaders: Int? = nil
        /// Announce the whole body in Content-Length but send only this many
        /// bytes, then close the connection.
        public var cutShort: Int? = nil
        /// Write the body in pieces of this size …
        public var bodyChunkSize: Int? = nil
        /// … with this many seconds between them (to keep a big body in flight).
        public var bodyChunkDelay: Double = 0
        /// Close the connection after this response even if the client wants
        /// to keep it.
        public var closeConnection: Bool = false

        /// A response with a status, headers and a body.
        public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// 200 with the given body.
        public static func ok(_ body: [UInt8], contentType: String = "image/gif") -> Response {
            Response(status: 200, headers: [("Content-Type", contentType)], body: body)
        }

        /// A plain status with a short text body.
        public static func status(_ code: Int, _ text: String? = nil) -> Response {
            Response(
                status: code, headers: [("Content-Type", "text/plain")],
                body: Array((text ?? "\(code) \(HTTPTestServer.reason(code))\n").utf8))
        }

        /// This response, sent only after `seconds`.
        public func delayed(_ seconds: Double) -> Response {
            var copy = self
            copy.delayBeforeHeaders = seconds
            return copy
        }

        /// This response, stalled after the headers and `bytes` of the body.
        public func stalled(afterBodyBytes bytes: Int) -> Response {
            var copy = self
            copy.stallAfterHeaders = bytes
            return copy
        }

        /// This response, cut after `bytes` of the body.
        public func cut(afterBodyBytes bytes: Int) -> Response {
            var copy = self
            copy.cutShort = bytes
            return copy
        }

        /// This response, with the body written in paced pieces.
        public func paced(chunkSize: Int, delay: Double) -> Response {
            var copy = self
            copy.bodyChunkSize = chunkSize
            copy.bodyChunkDelay = delay
            return copy
        }
    }

    /// A route's handler.
    public typealias Handler = @Sendable (Request) -> Response

    /// Errors from setting the server up, with the errno.
    public struct SocketError: Error, CustomStringConvertible {
        /// The call that failed.
        public var call: String
        /// Its errno.
        public var code: Int32
        /// A readable message.
        public var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// The port the server listens on.
    public let port: UInt16

    private static let maxHeadBytes = 64 * 1024
    private static let maxBodyBytes = 1 << 20

    private let lock = NSLock()
    private var listener: Int32
    private var stopping = false
    private var routes: [String: Handler] = [:]
    private var openConnections: Set<Int32> = []
    private var threads: [pthread_t] = []
    private var acceptThread: pthread_t?
    private var totalRequests = 0
    private var perPath: [String: Int] = [:]
    private var accepted = 0
    private var fullySent: [String: Int] = [:]
    private var log: [Request] = []

    /// Binds 127.0.0.1 on a free port and starts accepting.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "bind", code: code)
        }
        guard listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw SocketError(call: "getsockname", code: code)
        }
        listener = fd
        port = UInt16(bigEndian: actual.sin_port)
        let thread = try spawnThread { [self] in acceptLoop() }
        lock.withLock { acceptThread = thread }
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>` followed by `path`.
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Registers (or replaces) the handler for a path; the query is ignored when matching.
    public func route(_ path: String, _ handler: @escaping Handler) {
        lock.withLock { routes[path] = handler }
    }

    /// Registers a fixed response for a path.
    public func route(_ path: String, response: Response) {
        route(path) { _ in response }
    }

    /// Total requests received.
    public var requestCount: Int { lock.withLock { totalRequests } }

    /// Requests received for one path.
    public func requestCount(for path: String) -> Int {
        lock.withLock { perPath[path, default: 0] }
    }

    /// Connections accepted so far.
    public var connectionCount: Int { lock.withLock { accepted } }

    /// Responses for a path whose whole body was written to the socket.
    public func fullySentCount(for path: String) -> Int {
        lock.withLock { fullySent[path, default: 0] }
    }

    /// Every request received, in arrival order.
    public var requests: [Request] { lock.withLock { log } }

    /// Waits until `condition` holds or `timeout` seconds pass; returns whether it held.
    public func wait(timeout: Double = 60, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Closes the listener and every connection, and joins all threads. Idempotent.
    public func stop() {
        let accepter: pthread_t? = lock.withLock {
            if stopping { return nil }
            stopping = true
            // Shutting down (not closing) wakes a thread blocked in send or
            // recv; holding the lock keeps its descriptor from being closed
            // and reused under us meanwhile.
            for fd in openConnections { shutdown(fd, Int32(SHUT_RDWR)) }
            let accepter = acceptThread
            acceptThread = nil
            return accepter
        }
        if let accepter { pthread_join(accepter, nil) }
        while true {
            let pending: [pthread_t] = lock.withLock {
                let list = threads
                threads.removeAll()
                return list
            }
            if pending.isEmpty { break }
            for thread in pending { pthread_join(thread, nil) }
        }
        lock.withLock {
            if listener >= 0 {
                close(listener)
                listener = -1
            }
        }
    }

    // MARK: - Helpers for routes

    /// A handler that answers `status` the first `times` requests, then 200 with `body`.
    public static func failing(times: Int, status: Int, then body: [UInt8]) -> Handler {
        let counter = Counter()
        return { _ in
            counter.next() < times ? .status(status) : .ok(body)
        }
    }

    /// The reason phrase for a status code.
    public static func reason(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.withLock {
                defer { value += 1 }
                return value
            }
        }
    }

    // MARK: - Accepting

    private var isStopping: Bool { lock.withLock { stopping } }

    private func acceptLoop() {
        while !isStopping {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            if ready <= 0 { continue }
            // Glibc does not export accept4 to Swift: accept, then mark the
            // socket close-on-exec under the lock StageProcess spawns under,
            // so no child started meanwhile inherits it.
            let fd: Int32 = descriptorLock.withLock {
                let fd = accept(listener, nil, nil)
                if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                return fd
            }
            if fd < 0 { continue }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let admitted: Bool = lock.withLock {
                if stopping { return false }
                accepted += 1
                openConnections.insert(fd)
                return true
            }
            guard admitted else {
                close(fd)
                break
            }
            do {
                let thread = try spawnThread { [self] in serve(fd) }
                lock.withLock { threads.append(thread) }
            } catch {
                forget(fd)
            }
        }
    }

    private func forget(_ fd: Int32) {
        lock.withLock { _ = openConnections.remove(fd) }
        close(fd)
    }

    // MARK: - One connection

    private func serve(_ fd: Int32) {
        defer { forget(fd) }
        var buffer: [UInt8] = []
        while !isStopping {
            guard let request = readRequest(fd, &buffer) else { return }
            let handler: Handler? = lock.withLock {
                totalRequests += 1
                perPath[request.path, default: 0] += 1
                log.append(request)
                return routes[request.path]
            }
            let response = handler?(request) ?? .status(404, "no route for \(request.path)\n")
            let clientCloses = wantsClose(request)
            guard send(response, for: request, on: fd, closing: clientCloses || response.closeConnection) else { return }
            if clientCloses || response.closeConnection { return }
        }
    }

    private func wantsClose(_ request: Request) -> Bool {
        let connection = request.header("Connection")?.lowercased() ?? ""
        if connection.contains("close") { return true }
        if request.version == "HTTP/1.0" { return !connection.contains("keep-alive") }
        return false
    }

    /// Reads one request; nil when the client went away, sent garbage, or the server stops.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> Request? {
        var headEnd: Int?
        while true {
            if let end = findHeadEnd(buffer) {
                headEnd = end
                break
            }
            if buffer.count > Self.maxHeadBytes {
                _ = send(.status(431), for: nil, on: fd, closing: true)
                return nil
            }
            guard readMore(fd, &buffer) else { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard requestLine.count == 3 else {
            _ = send(.status(400), for: nil, on: fd, closing: true)
            return nil
        }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        buffer.removeFirst(headEnd + 4)
        var request = Request(
            method: requestLine[0], target: requestLine[1], path: "/", query: nil,
            headers: headers, body: [], version: requestLine[2])
        var target = requestLine[1]
        if let schemeEnd = target.range(of: "://") {
            // Absolute form (as sent to proxies): keep only path and query.
            let rest = target[schemeEnd.upperBound...]
            target = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        if let mark = target.firstIndex(of: "?") {
            request.path = String(target[..<mark])
            request.query = String(target[target.index(after: mark)...])
        } else {
            request.path = target
        }
        if request.header("Transfer-Encoding") != nil {
            _ = send(.status(501), for: nil, on: fd, closing: true)
            return nil
        }
        let length = Int(request.header("Content-Length") ?? "0") ?? -1
        guard length >= 0, length <= Self.maxBodyBytes else {
            _ = send(.status(413), for: nil, on: fd, closing: true)
            return nil
        }
        while buffer.count < length {
            guard readMore(fd, &buffer) else { return nil }
        }
        request.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return request
    }

    private func findHeadEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Appends what the socket has; false at EOF, on error, or when stopping.
    private func readMore(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if isStopping { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            if ready == 0 { continue }
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return false
        }
    }

    // MARK: - Writing

    /// Writes a response; false when the connection must end.
    private func send(_ response: Response, for request: Request?, on fd: Int32, closing: Bool) -> Bool {
        if response.delayBeforeHeaders > 0 && !sleepUnlessStopping(response.delayBeforeHeaders, fd: fd) {
            return false
        }
        let isHead = request?.method == "HEAD"
        let hasBody = !(isHead || response.status == 204 || response.status == 304 || (100..<200).contains(response.status))
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var sawLength = false
        for (name, value) in response.headers {
            if name.lowercased() == "content-length" { sawLength = true }
            head += "\(name): \(value)\r\n"
        }
        if !sawLength && response.status != 204 && !(100..<200).contains(response.status) {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        let closes = closing || response.cutShort != nil || response.stallAfterHeaders != nil
        head += closes ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
        head += "\r\n"
        guard write(Array(head.utf8), to: fd) else { return false }
        guard hasBody else { return !closes }

        if let stall = response.stallAfterHeaders {
            _ = write(Array(response.body.prefix(max(0, stall))), to: fd)
            waitUntilGoneOrStopping(fd)
            return false
        }
        var body = response.body[...]
        if let cut = response.cutShort { body = body.prefix(max(0, cut)) }
        let piece = response.bodyChunkSize ?? max(body.count, 1)
        var offset = body.startIndex
        while offset < body.endIndex {
            let end = min(offset + piece, body.endIndex)
            guard write(Array(body[offset..<end]), to: fd) else { return false }
            offset = end
            if offset < body.endIndex && response.bodyChunkDelay > 0
                && !sleepUnlessStopping(response.bodyChunkDelay, fd: fd)
            {
                return false
            }
        }
        if response.cutShort != nil {
            shutdown(fd, Int32(SHUT_WR))
            return false
        }
        if let request {
            lock.withLock { fullySent[request.path, default: 0] += 1 }
        }
        return !closes
    }

    private func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            if isStopping { return false }
            let count = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Sleeps in small steps; false when the server stops or the client leaves first.
    private func sleepUnlessStopping(_ seconds: Double, fd: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isStopping || clientGone(fd, waitMilliseconds: 0) { return false }
            let left = deadline.timeIntervalSinceNow
            usleep(useconds_t(max(0, min(left, 0.02)) * 1_000_000))
        }
        return true
    }

    private func waitUntilGoneOrStopping(_ fd: Int32) {
        while !isStopping && !clientGone(fd, waitMilliseconds: 50) {}
    }

    /// Whether the peer closed (EOF or error) — a peeked byte of a next request is not leaving.
    private func clientGone(_ fd: Int32, waitMilliseconds: Int32) -> Bool {
        let peerClosedWriting: Int16 = 0x2000  // POLLRDHUP, which Glibc does not export to Swift
        let hangUp: Int16 = Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL) | peerClosedWriting
        var pfd = pollfd(fd: fd, events: Int16(POLLIN) | peerClosedWriting, revents: 0)
        let ready = poll(&pfd, 1, waitMilliseconds)
        if ready <= 0 { return false }
        if pfd.revents & hangUp != 0 { return true }
        var byte: UInt8 = 0
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if peeked == 0 { return true }
        if peeked < 0 { return errno != EAGAIN && errno != EINTR }
        // Data is waiting (a pipelined request): don't spin on it.
        usleep(UInt32(max(1, waitMilliseconds)) * 1000)
        return false
    }
}

// MARK: - Threads and descriptors

/// Held while a descriptor is made and marked close-on-exec, and while a child
/// is spawned, so no child inherits a descriptor in between (Glibc's accept4
/// and pipe2 are not exported to Swift).
let descriptorLock = NSLock()

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Starts a joinable POSIX thread.
func spawnThread(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let rc = pthread_create(&thread, nil, { raw in
        guard let raw else { return nil }
        let body = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
        body.run()
        return nil
    }, context)
    guard rc == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        throw HTTPTestServer.SocketError(call: "pthread_create", code: rc)
    }
    return thread
}
