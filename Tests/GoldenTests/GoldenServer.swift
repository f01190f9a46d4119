// The HTTP server a case runs against (issue 30, part 4): a real server on
// 127.0.0.1, on a free port, started by the runner for the case and stopped
// after it. Either of
//
//   server/      files served at their paths: `server/v1/a.gif` answers
//                GET /v1/a.gif (the query is ignored). Beside a path,
//                `PATH.status` holds its status code (200 when missing; a
//                `.status` alone serves an empty body), or several, one a
//                line: the answers in turn, the last one for every later
//                request (`500`, `200`: fails once, then serves the body).
//                `PATH.headers` holds its header lines (`Name: value`,
//                `{server}` replaced), `PATH.cut` a byte count: the body is
//                cut short there (the connection closes), `PATH.stall` a byte
//                count: the body stops there and the connection hangs,
//                `PATH.delay` seconds before the answer comes. `PATH.2`,
//                `PATH.3`…: the bodies of the second, third… answer (the
//                last one for every later request; Klipy's pages share a
//                path). Any other path is 404 `no route for PATH`.
//   fake         `giphy` or `klipy` on its first line: the test fakes
//                (TestSupport's FakeGiphy, FakeKlipy) with their own key.
//                For giphy, the lines after configure it, one a line:
//                  search QUERY count N | trending count N
//                  search QUERY items ID ID … (FakeGIF.make: every rendition)
//                  search QUERY total N | total missing | total N,M,…
//                  gif ID without|empty NAME …   (after its items line)
//                  gif ID title|slug|username "JSON STRING"
//                  gif ID tags ["JSON", …] | gif ID user ["USERNAME", "DISPLAY NAME"]
//                  fail unauthorized|rate-limited|synthetic|not-json
//                       |server-error N|server-error-echoing N
//                       |bare STATUS MESSAGE… [times N|always] [at OFFSET]
//                  delay SECONDS [at OFFSET]   (the answers come late)
//                For klipy: `search QUERY count N`, `refuse KEY` (a key it
//                answers 401; any other unknown key meets no route: 404),
//                `more QUERY` (every answer for QUERY says has_next: true,
//                past its end too), `media FILE` (the items' gif URLs point
//                at the fake, which serves FILE, a path under Tests/Fixtures,
//                for each), `gone QUERY INDEX …` (after `search`: those
//                items' media answer 404), and
//                  fail rate-limited [RETRY-AFTER]|unauthorized|server-error N
//                       |slow S|stalled S [times N|always] [at PAGE]
//                (QUERY is one word, `_` in it a space; `total` after
//                `count` or `items`.)
//                For commons (FakeCommons, no key; COMMONS_API_URL={server}/w/api.php):
//                  search QUERY sample     (ten files of every kind: FakeCommonsFile.sample)
//                  search QUERY count N    (N JPEG photographs)
//                  fail maxlag [503]|html|forbidden|server-error N [times N|always]
//                  hold MS                 (each answer takes MS; default 20)
//
// `{server}` in args, env and stdin is the server's base URL
// (`http://127.0.0.1:PORT`), written back as `{server}` in stdout, stderr and
// after/. `{key}` is the fake's API key: it must appear in no output and no
// file the run leaves (nor a GIPHY_API_KEY or KLIPY_API_KEY the case's env
// gives, of 8 characters or more), and the runner checks that on every run.
//
//   requests     expected requests the server saw, `METHOD TARGET` a line,
//                sorted (concurrent transfers arrive in any order), the key
//                written `{key}` (any other key `{other-key}`, Klipy's
//                customer_id `{customer-id}`): what was
//                fetched, and what never was.
//   requests.ordered  the same in arrival order, for a tool that asks one at
//                a time (plan's pings, list --concurrency 1).

import Foundation
import Testing
import TestSupport

/// The server of one case, while it runs.
final class GoldenServer {
    /// The server the requests are read from.
    let http: HTTPTestServer
    /// The fake's API key, when a fake serves.
    let key: String?
    private let keepAlive: AnyObject?

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { http.url("") }

    /// The server a case asks for, or nil when it asks for none.
    static func start(for golden: GoldenCase) throws -> GoldenServer? {
        if let fake = golden.text("fake") {
            var lines = fake.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
            let kind = lines.isEmpty ? "" : lines.removeFirst()
            switch kind {
            case "giphy":
                let giphy = try FakeGiphy()
                try configure(giphy, lines)
                return GoldenServer(http: giphy.server, key: giphy.key, keepAlive: giphy)
            case "klipy":
                let klipy = try FakeKlipy()
                var counts: [String: Int] = [:]
                for line in lines {
                    let words = line.split(separator: " ").map(String.init)
                    switch (words.first, words.count) {
                    case ("search", 4) where words[2] == "count":
                        counts[words[1]] = Int(words[3]) ?? 0
                        klipy.set(words[1], count: counts[words[1]])
                    case ("refuse", 2): klipy.refuse(key: words[1])
                    case ("more", 2): klipy.claimMore(words[1])
                    case ("media", 2): klipy.serveMedia(Array(try Data(contentsOf: GoldenCase.root.appendingPathComponent(words[1]))))
                    case ("gone", _) where words.count >= 3:
                        let gone = Set(words.dropFirst(2).compactMap { Int($0) })
                        let items = (0..<(counts[words[1]] ?? 0)).map { index -> FakeKlipyItem in
                            let item = FakeKlipy.generated(words[1], index)
                            return gone.contains(index) ? FakeKlipyItem(id: item.id, raw: item.json(host: klipy.baseURL + "/gone", webpHeavier: true)) : item
                        }
                        klipy.set(words[1], items: items)
                    case ("fail", _): try failKlipy(klipy, Array(words.dropFirst()), line)
                    default: throw GoldenError("\(golden.testDescription)/fake: \(line): not a klipy line")
                    }
                }
                return GoldenServer(http: klipy.server, key: klipy.key, keepAlive: klipy)
            case "commons":
                let commons = try FakeCommons()
                try configure(commons, lines)
                return GoldenServer(http: commons.server, key: nil, keepAlive: commons)
            default:
                throw GoldenError("\(golden.testDescription)/fake: \(kind) is not giphy, klipy or commons")
            }
        }
        let folder = golden.file("server")
        guard FileManager.default.fileExists(atPath: folder.path) else { return nil }
        let server = try HTTPTestServer()
        let base = server.url("")
        let files = GoldenCase.files(under: folder)
        var paths = Set<String>()
        for file in files {
            if file.hasSuffix(".status") { paths.insert(String(file.dropLast(7))) }
            else if file.hasSuffix(".cut") { paths.insert(String(file.dropLast(4))) }
            else if file.hasSuffix(".stall") { paths.insert(String(file.dropLast(6))) }
            else if file.hasSuffix(".delay") { paths.insert(String(file.dropLast(6))) }
            else if file.hasSuffix(".headers") { paths.insert(String(file.dropLast(8))) }
            else if file.wholeMatch(of: #/.+\.[2-9]/#) == nil { paths.insert(file) }
        }
        for path in paths {
            let read = { (name: String) in (try? Data(contentsOf: folder.appendingPathComponent(name))).map { Array($0) } }
            let body = read(path) ?? []
            let later = (2...9).map { read("\(path).\($0)") }.prefix { $0 != nil }.compactMap { $0 }
            let statusText = (try? String(contentsOf: folder.appendingPathComponent(path + ".status"), encoding: .utf8)) ?? "200"
            let statuses = statusText.split(separator: "\n").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !statuses.isEmpty, !statuses.contains(nil) else {
                throw GoldenError("\(golden.testDescription)/server/\(path).status: \(statusText) is not status codes")
            }
            let cutText = try? String(contentsOf: folder.appendingPathComponent(path + ".cut"), encoding: .utf8)
            let cut = cutText.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let stallText = try? String(contentsOf: folder.appendingPathComponent(path + ".stall"), encoding: .utf8)
            let stall = stallText.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            let delayText = try? String(contentsOf: folder.appendingPathComponent(path + ".delay"), encoding: .utf8)
            let delay = delayText.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            var headers: [(name: String, value: String)] = []
            let headerText = (try? String(contentsOf: folder.appendingPathComponent(path + ".headers"), encoding: .utf8)) ?? ""
            for line in headerText.split(separator: "\n") where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else {
                    throw GoldenError("\(golden.testDescription)/server/\(path).headers: \(line) is not Name: value")
                }
                headers.append((String(line[..<colon]),
                                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "{server}", with: base)))
            }
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(("Content-Type", path.hasSuffix(".gif") ? "image/gif" : path.hasSuffix(".json") ? "application/json" : "application/octet-stream"))
            }
            let answers = statuses.compactMap { $0 }.map { status -> HTTPTestServer.Response in
                let response = HTTPTestServer.Response(status: status, headers: headers, body: status == 200 || statuses.count == 1 ? body : [])
                let late = delay.map { response.delayed($0) } ?? response
                let stalled = stall.map { late.stalled(afterBodyBytes: $0) } ?? late
                return cut.map { stalled.cut(afterBodyBytes: $0) } ?? stalled
            }
            let asked = Counter()
            server.route("/" + path) { _ in
                let index = asked.next()
                var answer = answers[min(index, answers.count - 1)]
                if index > 0, !later.isEmpty { answer.body = later[min(index, later.count) - 1] }
                return answer
            }
        }
        return GoldenServer(http: server, key: nil, keepAlive: nil)
    }

    private init(http: HTTPTestServer, key: String?, keepAlive: AnyObject?) {
        self.http = http
        self.key = key
        self.keepAlive = keepAlive
    }

    /// The requests seen, `METHOD TARGET` a line, sorted or in arrival order, the key as `{key}`.
    func requestLines(sorted: Bool) -> String {
        let lines = http.requests.map { request -> String in
            var target = key.map { request.target.replacingOccurrences(of: $0, with: "{key}") } ?? request.target
            // Any other key (a case that gives a wrong one) is kept out of the expected file too.
            target = target.replacing(#/api_key=(?!\{key\})[^&]*/#, with: "api_key={other-key}")
                .replacing(#/^/api/v1/(?!\{key\})[^/]+//#, with: "/api/v1/{other-key}/")
                // Klipy's customer_id is made afresh for each data folder.
                .replacing(#/customer_id=[^&]*/#, with: "customer_id={customer-id}")
            return "\(request.method) \(target.replacingOccurrences(of: baseURL, with: "{server}"))"
        }
        return (sorted ? lines.sorted() : lines).map { $0 + "\n" }.joined()
    }

    /// Stops the server.
    func stop() {
        if let giphy = keepAlive as? FakeGiphy { giphy.stop() } else { http.stop() }
    }

    private static func configure(_ commons: FakeCommons, _ lines: [String]) throws {
        for line in lines {
            var words = line.split(separator: " ").map(String.init)
            var times = 1
            if words.count >= 2, words[words.count - 2] == "times" {
                times = words.last == "always" ? Int.max : Int(words.last ?? "") ?? 1
                words.removeLast(2)
            }
            switch (words.first, words.count) {
            case ("search", 3) where words[2] == "sample": commons.set(words[1], FakeCommonsFile.sample(words[1]))
            case ("search", 4) where words[2] == "count": commons.set(words[1], FakeCommonsFile.photos(words[1], count: Int(words[3]) ?? 0))
            case ("hold", 2): commons.holdAnswers((Double(words[1]) ?? 0) / 1000)
            case ("fail", _) where words.count >= 2:
                let fault: FakeCommons.Fault
                switch (words[1], words.count > 2 ? Int(words[2]) : nil) {
                case ("maxlag", let status): fault = .maxlag(status: status ?? 200)
                case ("html", nil): fault = .html
                case ("forbidden", nil): fault = .forbidden
                case ("server-error", let status?): fault = .serverError(status)
                default: throw GoldenError("fake: \(line): not a commons fault")
                }
                commons.fail(fault, times: times)
            default: throw GoldenError("fake: \(line): not a commons line")
            }
        }
    }

    private static func failKlipy(_ klipy: FakeKlipy, _ words: [String], _ line: String) throws {
        var words = words
        var page: Int?
        var times = 1
        if words.count >= 3, words[words.count - 2] == "at" {
            page = Int(words.removeLast())
            words.removeLast()
        }
        if words.count >= 3, words[words.count - 2] == "times" {
            times = words.last == "always" ? Int.max : Int(words.last ?? "") ?? 1
            words.removeLast(2)
        }
        let fault: FakeKlipy.Fault
        switch (words.first ?? "", words.count > 1 ? Double(words[1]) : nil) {
        case ("rate-limited", let after): fault = .rateLimited(retryAfter: after.map { Int($0) })
        case ("unauthorized", nil): fault = .unauthorized
        case ("server-error", let code?): fault = .serverError(Int(code))
        case ("slow", let seconds?): fault = .slow(seconds)
        case ("stalled", let seconds?): fault = .stalled(seconds)
        default: throw GoldenError("fake: \(line): not a klipy fault")
        }
        klipy.fail(fault, times: times, page: page)
    }

    private static func configure(_ giphy: FakeGiphy, _ lines: [String]) throws {
        var listings: [FakeGiphy.List: FakeGiphy.Listing] = [:]
        for line in lines {
            var words = line.split(separator: " ").map(String.init)
            var offset: Int?
            if words.count >= 3, words[words.count - 2] == "at" {
                offset = Int(words.last ?? "")
                words.removeLast(2)
            }
            if words.first == "delay", words.count == 2, let seconds = Double(words[1]) {
                giphy.delay(seconds, offset: offset)
                continue
            }
            if words.first == "fail" {
                words.removeFirst()
                var times = 1
                if words.count >= 2, words[words.count - 2] == "times" {
                    times = words.last == "always" ? Int.max : Int(words.last ?? "") ?? 1
                    words.removeLast(2)
                }
                let fault: FakeGiphy.Fault
                switch (words.first ?? "", words.count > 1 ? Int(words[1]) : nil) {
                case ("unauthorized", _): fault = .unauthorized
                case ("rate-limited", _): fault = .rateLimited
                case ("synthetic", _): fault = .synthetic
                case ("not-json", _): fault = .notJSON
                case ("server-error", let code?): fault = .serverError(code)
                case ("server-error-echoing", let code?): fault = .serverErrorEchoingRequest(code)
                case ("bare", let code?): fault = .bare(status: code, message: words.dropFirst(2).joined(separator: " "))
                default: throw GoldenError("fake: \(line): not a fault")
                }
                giphy.fail(fault, times: times, offset: offset)
                continue
            }
            if words.first == "gif", words.count >= 4, ["without", "empty", "title", "slug", "tags", "username", "user"].contains(words[2]) {
                // Every listed item of that id loses the renditions named (missing
                // keys), has them empty (`{}`), or takes the field's JSON value.
                let field = words[2]
                let json = line.range(of: " \(field) ").map { String(line[$0.upperBound...]) } ?? ""
                let value = ["without", "empty"].contains(field) ? nil
                    : try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
                if !["without", "empty"].contains(field), value == nil { throw GoldenError("fake: \(line): not JSON after \(field)") }
                for (list, var listing) in listings {
                    let names = Array(words[3...])
                    listing.items = listing.items.map { item in
                        guard item.id == words[1] else { return item }
                        var item = item
                        switch field {
                        case "without": item.renditions.removeAll { names.contains($0.name) }
                        case "empty":
                            for index in item.renditions.indices where names.contains(item.renditions[index].name) {
                                item.renditions[index].rendition = nil
                            }
                        case "title": item.title = value as? String ?? item.title
                        case "slug": item.slug = value as? String
                        case "tags": item.tags = value as? [String]
                        case "username": item.username = value as? String ?? ""
                        default:
                            let pair = value as? [String] ?? []
                            item.user = pair.count == 2 ? (pair[0], pair[1]) : nil
                        }
                        return item
                    }
                    listings[list] = listing
                    giphy.set(list, listing)
                }
                continue
            }
            let list: FakeGiphy.List
            if words.first == "trending" {
                list = .trending
                words.removeFirst()
            } else if words.first == "search", words.count >= 2 {
                list = .search(words[1].replacingOccurrences(of: "_", with: " "))
                words.removeFirst(2)
            } else {
                throw GoldenError("fake: \(line): not a giphy line")
            }
            var listing = listings[list] ?? FakeGiphy.Listing()
            switch words.first {
            case "count": listing.count = Int(words.count > 1 ? words[1] : "") ?? 0
            case "items":
                listing.items = words.dropFirst().map { FakeGIF.make(id: $0) }
                listing.count = max(listing.count, listing.items.count)
            case "total":
                let value = words.count > 1 ? words[1] : ""
                if value == "missing" { listing.total = .missing }
                else if value.contains(",") { listing.total = .changing(value.split(separator: ",").compactMap { Int($0) }) }
                else if let fixed = Int(value) { listing.total = .fixed(fixed) }
                else { throw GoldenError("fake: \(line): not a total") }
            default: throw GoldenError("fake: \(line): count, items or total?")
            }
            listings[list] = listing
            giphy.set(list, listing)
        }
    }
}

/// How many times a path was asked for.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int { lock.withLock { defer { count += 1 }; return count } }
}

/// A case folder that says something the runner cannot do.
struct GoldenError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
