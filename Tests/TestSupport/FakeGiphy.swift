// A Giphy-compatible API on 127.0.0.1 for end-to-end tests, on top of HTTPTestServer.
//
//   giphy-pages ──GET /v1/gifs/search?api_key&q&limit&offset&rating&lang──▶ FakeGiphy.respond
//               ──GET /v1/gifs/trending?api_key&limit&offset&rating&lang──▶      │
//                                                                              ├─ log the call
//                                                                              ├─ wrong/missing key → 401
//                                                                              ├─ q > 50 chars → 414
//                                                                              ├─ a queued fault (429, 5xx,
//                                                                              │  synthetic, bare shape, …)
//                                                                              ├─ offset past the cap → 200, empty
//                                                                              └─ a page of the list
//
// The bodies have the shape of the real responses in ../shared/corpus/giphy:
// every number inside a rendition is a string, `is_sticker` is a number,
// media URLs carry `?cid=…&rid=…&ct=g`, renditions may be `{}` or missing, the
// 429 has no Retry-After, errors come as `{"data":[],"meta":{"status":…}}` or
// as a bare `{"message":…}`, and a failing backend answers 200 with empty data,
// an empty response_id and no pagination. Items can also be served verbatim
// from the corpus (``FakeGIF/corpus(_:)``); without the corpus the fake makes
// its own items.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One rendition of a fake GIF. Every number is written as a string, as Giphy does.
public struct FakeRendition: Sendable, Equatable {
    public var url: String?
    public var width: Int?
    public var height: Int?
    public var size: Int?
    public var frames: Int?
    public var mp4: String?
    public var mp4Size: Int?
    public var webp: String?
    public var webpSize: Int?
    public var hash: String?

    public init(url: String? = nil, width: Int? = nil, height: Int? = nil, size: Int? = nil, frames: Int? = nil,
                mp4: String? = nil, mp4Size: Int? = nil, webp: String? = nil, webpSize: Int? = nil, hash: String? = nil) {
        self.url = url
        self.width = width
        self.height = height
        self.size = size
        self.frames = frames
        self.mp4 = mp4
        self.mp4Size = mp4Size
        self.webp = webp
        self.webpSize = webpSize
        self.hash = hash
    }

    /// The JSON object, keys in the order the real API writes them.
    var json: String {
        var members: [String] = []
        if let height { members.append("\"height\":\"\(height)\"") }
        if let width { members.append("\"width\":\"\(width)\"") }
        if let size { members.append("\"size\":\"\(size)\"") }
        if let url { members.append("\"url\":\(quoteJSON(url))") }
        if let mp4Size { members.append("\"mp4_size\":\"\(mp4Size)\"") }
        if let mp4 { members.append("\"mp4\":\(quoteJSON(mp4))") }
        if let webpSize { members.append("\"webp_size\":\"\(webpSize)\"") }
        if let webp { members.append("\"webp\":\(quoteJSON(webp))") }
        if let frames { members.append("\"frames\":\"\(frames)\"") }
        if let hash { members.append("\"hash\":\(quoteJSON(hash))") }
        return "{" + members.joined(separator: ",") + "}"
    }
}

/// A named rendition of a fake GIF; a nil `rendition` is written as `{}`.
public struct FakeNamedRendition: Sendable, Equatable {
    public var name: String
    public var rendition: FakeRendition?

    public init(_ name: String, _ rendition: FakeRendition?) {
        self.name = name
        self.rendition = rendition
    }
}

/// One GIF object of a fake response.
public struct FakeGIF: Sendable, Equatable {
    public var id: String
    public var title: String
    /// The `images` object, in order. Absent names are missing renditions;
    /// a nil rendition is an empty object `{}`.
    public var renditions: [FakeNamedRendition]
    /// When set, the whole GIF object is served verbatim (an item of the corpus).
    public var raw: String?
    /// The slug's words (before `-ID`); nil: made from the title.
    public var slug: String?
    /// `tags`, when the answer has them (some keys get none: the key is then absent).
    public var tags: [String]?
    /// `username` (empty: none, as most answers have).
    public var username = ""
    /// The `user` object's `username` and `display_name`, when the GIF has a user.
    public var user: (username: String, displayName: String)?

    public init(id: String, title: String, renditions: [FakeNamedRendition], raw: String? = nil) {
        self.id = id
        self.title = title
        self.renditions = renditions
        self.raw = raw
    }

    public static func == (a: FakeGIF, b: FakeGIF) -> Bool {
        a.id == b.id && a.title == b.title && a.renditions == b.renditions && a.raw == b.raw && a.slug == b.slug
            && a.tags == b.tags && a.username == b.username && a.user?.username == b.user?.username
            && a.user?.displayName == b.user?.displayName
    }

    /// A GIF with the full set of renditions a real search result has (original
    /// with frames and hash, the fixed_* and downsized_* GIFs, stills, mp4-only
    /// and webp-only ones, a jpg still), numbers derived from the id.
    public static func make(id: String, title: String? = nil, frames: Int? = nil, hd: Bool = false) -> FakeGIF {
        let seed = fnv1a(id)
        let width = 240 + Int(seed % 400)            // original width 240…639
        let height = 180 + Int((seed >> 12) % 300)   // original height 180…479
        let frames = frames ?? (4 + Int((seed >> 24) % 120))
        let cid = "98362685" + String(String(seed, radix: 36).reversed()).padding(toLength: 12, withPad: "q", startingAt: 0)
            + "wta46elpz5zfhdb6okolm2wl2g"
        let host = "media\(seed % 5).giphy.com"
        func media(_ file: String) -> String {
            "https://\(host)/media/\(id)/\(file)?cid=\(cid)&rid=\(file)&ct=g"
        }
        func scaled(toHeight h: Int) -> Int { max(1, (width * h + height / 2) / height) }
        func scaled(toWidth w: Int) -> Int { max(1, (height * w + width / 2) / width) }
        let base = 20_000 + Int(seed % 900_000)
        let hash = String(format: "%016llx%016llx", seed, seed &* 0x9E37_79B9_7F4A_7C15)
        var list: [FakeNamedRendition] = [
            .init("original", FakeRendition(url: media("giphy.gif"), width: width, height: height, size: base * 8,
                                            frames: frames, mp4: media("giphy.mp4"), mp4Size: base * 2,
                                            webp: media("giphy.webp"), webpSize: base * 3, hash: hash)),
            .init("downsized", FakeRendition(url: media("giphy-downsized.gif"), width: width, height: height, size: base * 4)),
            .init("downsized_large", FakeRendition(url: media("giphy.gif"), width: width, height: height, size: base * 8)),
            .init("downsized_medium", FakeRendition(url: media("giphy-downsized-medium.gif"), width: width, height: height, size: base * 6)),
            .init("downsized_small", FakeRendition(width: scaled(toHeight: 120), height: 120, mp4: media("giphy-downsized-small.mp4"), mp4Size: base / 2)),
            .init("downsized_still", FakeRendition(url: media("giphy-downsized_s.gif"), width: width, height: height, size: base / 10)),
            .init("fixed_height", FakeRendition(url: media("200.gif"), width: scaled(toHeight: 200), height: 200, size: base + 7,
                                                mp4: media("200.mp4"), mp4Size: base / 3, webp: media("200.webp"), webpSize: base / 2)),
            .init("fixed_height_downsampled", FakeRendition(url: media("200_d.gif"), width: scaled(toHeight: 200), height: 200, size: base / 4 + 3,
                                                            webp: media("200_d.webp"), webpSize: base / 5)),
            .init("fixed_height_small", FakeRendition(url: media("100.gif"), width: scaled(toHeight: 100), height: 100, size: base / 3,
                                                      mp4: media("100.mp4"), mp4Size: base / 6, webp: media("100.webp"), webpSize: base / 5)),
            .init("fixed_height_small_still", FakeRendition(url: media("100_s.gif"), width: scaled(toHeight: 100), height: 100, size: base / 40)),
            .init("fixed_height_still", FakeRendition(url: media("200_s.gif"), width: scaled(toHeight: 200), height: 200, size: base / 20)),
            .init("fixed_width", FakeRendition(url: media("200w.gif"), width: 200, height: scaled(toWidth: 200), size: base + 11,
                                               mp4: media("200w.mp4"), mp4Size: base / 3, webp: media("200w.webp"), webpSize: base / 2)),
            .init("fixed_width_downsampled", FakeRendition(url: media("200w_d.gif"), width: 200, height: scaled(toWidth: 200), size: base / 4 + 5,
                                                           webp: media("200w_d.webp"), webpSize: base / 5)),
            .init("fixed_width_small", FakeRendition(url: media("100w.gif"), width: 100, height: scaled(toWidth: 100), size: base / 3,
                                                     mp4: media("100w.mp4"), mp4Size: base / 6, webp: media("100w.webp"), webpSize: base / 5)),
            .init("fixed_width_small_still", FakeRendition(url: media("100w_s.gif"), width: 100, height: scaled(toWidth: 100), size: base / 40)),
            .init("fixed_width_still", FakeRendition(url: media("200w_s.gif"), width: 200, height: scaled(toWidth: 200), size: base / 20)),
            .init("looping", FakeRendition(mp4: media("giphy-loop.mp4"), mp4Size: base * 9)),
            .init("original_still", FakeRendition(url: media("giphy_s.gif"), width: width, height: height, size: base / 5)),
            .init("original_mp4", FakeRendition(width: width, height: height, mp4: media("giphy.mp4"), mp4Size: base * 2)),
            .init("preview", FakeRendition(width: scaled(toHeight: 150), height: 150, mp4: media("giphy-preview.mp4"), mp4Size: base / 8)),
            .init("preview_gif", FakeRendition(url: media("giphy-preview.gif"), width: scaled(toHeight: 80), height: 80, size: base / 9)),
            .init("preview_webp", FakeRendition(url: media("giphy-preview.webp"), width: scaled(toHeight: 110), height: 110, size: base / 9)),
        ]
        if hd {
            list.append(.init("hd", FakeRendition(width: width * 2, height: height * 2, mp4: media("giphy-hd.mp4"), mp4Size: base * 12)))
        }
        list.append(.init("480w_still", FakeRendition(url: media("480w_s.jpg"), width: 480, height: scaled(toWidth: 480), size: base * 8)))
        return FakeGIF(id: id, title: title ?? "Fake \(id) GIF", renditions: list)
    }

    /// The rendition named `name`: nil when missing or empty.
    public func rendition(_ name: String) -> FakeRendition? {
        renditions.first { $0.name == name }?.rendition
    }

    /// Whether the GIF has `name` at all (possibly as `{}`).
    public func has(_ name: String) -> Bool { renditions.contains { $0.name == name } }

    /// This GIF without the renditions `names` (missing keys).
    public func without(_ names: String...) -> FakeGIF {
        var copy = self
        copy.renditions.removeAll { names.contains($0.name) }
        return copy
    }

    /// This GIF with the renditions `names` written as empty objects `{}`.
    public func emptying(_ names: String...) -> FakeGIF {
        var copy = self
        for index in copy.renditions.indices where names.contains(copy.renditions[index].name) {
            copy.renditions[index].rendition = nil
        }
        return copy
    }

    /// This GIF with `rendition` set (replaced in place, or appended).
    public func setting(_ name: String, _ rendition: FakeRendition?) -> FakeGIF {
        var copy = self
        if let index = copy.renditions.firstIndex(where: { $0.name == name }) {
            copy.renditions[index].rendition = rendition
        } else {
            copy.renditions.append(.init(name, rendition))
        }
        return copy
    }

    /// The GIF object as the real API writes it.
    public var json: String {
        if let raw { return raw }
        let slug = self.slug ?? title.lowercased().unicodeScalars
            .map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? String($0) : "-" }.joined()
            .split(separator: "-").joined(separator: "-")
        let tagsMember = tags.map { ",\"tags\":[" + $0.map(quoteJSON).joined(separator: ",") + "]" } ?? ""
        let userMember = user.map {
            ",\"user\":{\"avatar_url\":\"https://media.giphy.com/avatars/x.gif\",\"username\":\(quoteJSON($0.username)),"
                + "\"display_name\":\(quoteJSON($0.displayName)),\"is_verified\":false}"
        } ?? ""
        let slugID = slug.isEmpty ? id : "\(slug)-\(id)"
        let images = renditions.map { "\(quoteJSON($0.name)):\($0.rendition?.json ?? "{}")" }.joined(separator: ",")
        let payload = Data("gif_id=\(id)&event_type=GIF_SEARCH&cid=98362685&ct=g".utf8).base64EncodedString()
        func pingback(_ action: String) -> String {
            quoteJSON("https://giphy-analytics.giphy.com/v2/pingback_simple?analytics_response_payload=e%3D\(payload)&action_type=\(action)")
        }
        return "{\"type\":\"gif\",\"id\":\(quoteJSON(id)),\"url\":\(quoteJSON("https://giphy.com/gifs/\(slugID)")),"
            + "\"slug\":\(quoteJSON(slugID)),\"bitly_gif_url\":\"https://gph.is/g/Z8qPOdb\",\"bitly_url\":\"https://gph.is/g/Z8qPOdb\","
            + "\"embed_url\":\(quoteJSON("https://giphy.com/embed/\(id)")),\"username\":\(quoteJSON(username)),\"source\":\"\","
            + "\"title\":\(quoteJSON(title)),\"rating\":\"g\",\"content_url\":\"\",\"source_tld\":\"\",\"source_post_url\":\"\","
            + "\"is_sticker\":0,\"import_datetime\":\"2021-10-14 18:04:06\",\"trending_datetime\":\"0000-00-00 00:00:00\","
            + "\"images\":{\(images)}\(tagsMember)\(userMember),"
            + "\"analytics_response_payload\":\(quoteJSON("e=\(payload)")),"
            + "\"analytics\":{\"onload\":{\"url\":\(pingback("SEEN"))},\"onclick\":{\"url\":\(pingback("CLICK"))},\"onsent\":{\"url\":\(pingback("SENT"))}}}"
    }

    // MARK: The corpus

    /// `../shared/corpus/giphy` (from this file: Tests/TestSupport → ../../../shared/corpus/giphy),
    /// or `$SPOSURE_GIPHY_CORPUS`; nil when the folder is absent.
    public static var corpusDirectory: URL? {
        var candidates: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["SPOSURE_GIPHY_CORPUS"], !dir.isEmpty {
            candidates.append(URL(fileURLWithPath: dir, isDirectory: true))
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/corpus/giphy", isDirectory: true).standardizedFileURL)
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("README.txt").path) }
    }

    /// The GIF objects of a corpus file (`data` as an array or a single object),
    /// each served verbatim; nil when the corpus or the file is absent.
    public static func corpus(_ file: String) -> [FakeGIF]? {
        guard let directory = corpusDirectory,
              let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8),
              let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let dataText = rawMember("data", of: text) else { return nil }
        let objects: [[String: Any]]
        let raws: [String]
        if let list = parsed["data"] as? [[String: Any]] {
            objects = list
            raws = rawElements(ofArray: dataText)
        } else if let single = parsed["data"] as? [String: Any] {
            objects = [single]
            raws = [dataText]
        } else {
            return nil
        }
        guard objects.count == raws.count else { return nil }
        return zip(objects, raws).map { object, raw in
            FakeGIF(id: object["id"] as? String ?? "", title: object["title"] as? String ?? "", renditions: [], raw: raw)
        }
    }
}

/// A Giphy-compatible API: `/v1/gifs/search` and `/v1/gifs/trending`.
public final class FakeGiphy: @unchecked Sendable {

    /// The key tests give the tools by default.
    public static let defaultKey = "sposureTestKey7Qx9Zr2Lm5Wv"

    /// Which result list: a search for a query, or trending.
    public enum List: Hashable, Sendable {
        case search(String)
        case trending

        var endpoint: String {
            switch self {
            case .search: return "search"
            case .trending: return "trending"
            }
        }

        var offsetCap: Int {
            switch self {
            case .search: return 4999
            case .trending: return 499
            }
        }
    }

    /// What `pagination.total_count` says.
    public enum Total: Sendable, Equatable {
        /// The number of results the list has.
        case count
        /// Always this number.
        case fixed(Int)
        /// One value per call to the list, in turn; the last one repeats.
        case changing([Int])
        /// No `total_count` in `pagination`.
        case missing
    }

    /// A way for one call to fail.
    public enum Fault: Sendable, Equatable {
        /// 401 `{"data":[],"meta":{"status":401,"msg":"Unauthorized","response_id":""}}`.
        case unauthorized
        /// 429 `{"data":[],"meta":{"status":429,"msg":"API rate limit exceeded","response_id":""}}`, no Retry-After.
        case rateLimited
        /// The old bare shape `{"message": message}` with this HTTP status.
        case bare(status: Int, message: String)
        /// A 5xx with an HTML body, as a gateway sends.
        case serverError(Int)
        /// A 5xx whose JSON `meta.msg` quotes the request target, key included
        /// (to check that the tools redact what the server says).
        case serverErrorEchoingRequest(Int)
        /// 200 with empty data, an empty response_id and no pagination.
        case synthetic
        /// 200 with a body that is not JSON.
        case notJSON
        /// The normal answer, but only after this many seconds (a slow page,
        /// for the next calls only; see also ``delay(_:list:offset:)``).
        case slow(Double)
    }

    /// One call the fake received.
    public struct Call: Sendable {
        public var endpoint: String
        public var path: String
        /// `q`, decoded.
        public var query: String?
        public var offset: Int?
        public var limit: Int?
        public var key: String?
        public var rating: String?
        public var lang: String?
        /// The status answered.
        public var status: Int
        /// The request target as sent (holds the key).
        public var target: String
        /// Seconds since the fake started, on arrival.
        public var time: Double
        /// Seconds since the fake started, when the answer was ready (nil while waiting).
        public var answered: Double?

        /// The list this call asked for.
        public var list: List? {
            switch endpoint {
            case "search": return query.map { .search($0) }
            case "trending": return .trending
            default: return nil
            }
        }
    }

    /// The configuration of one result list.
    public struct Listing: Sendable {
        /// The first results, in order (duplicates allowed).
        public var items: [FakeGIF]
        /// How many results the list has; past `items`, results are generated.
        public var count: Int
        public var total: Total

        public init(items: [FakeGIF] = [], count: Int? = nil, total: Total = .count) {
            self.items = items
            self.count = max(count ?? items.count, items.count)
            self.total = total
        }
    }

    public let server: HTTPTestServer
    /// The key the fake accepts; any other (or none) gets 401.
    public let key: String
    /// The most results a page gives (a beta key gets at most 50).
    public var maxLimit: Int {
        get { lock.withLock { _maxLimit } }
        set { lock.withLock { _maxLimit = newValue } }
    }

    private let lock = NSLock()
    private var listings: [List: Listing] = [:]
    private var callsPerList: [List: Int] = [:]
    private var faults: [(list: List?, offset: Int?, fault: Fault, left: Int)] = []
    private var delays: [(list: List?, offset: Int?, seconds: Double)] = []
    private var log: [Call] = []
    private var responseCounter = 0
    private var _maxLimit = 50
    private var stopped = false
    private let started = Date()

    /// A fake on a new server on 127.0.0.1, accepting `key`.
    public init(key: String = FakeGiphy.defaultKey) throws {
        self.key = key
        server = try HTTPTestServer()
        for path in ["/v1/gifs/search", "/v1/gifs/trending"] {
            server.route(path) { [unowned self] request in
                respond(target: request.target)
            }
        }
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`: the value for `--api-url` / `GIPHY_API_URL`.
    public var baseURL: String { server.url("") }

    /// Stops the server (idempotent); slow answers still waiting end at once.
    public func stop() {
        lock.withLock { stopped = true }
        server.stop()
    }

    /// Sleeps `seconds` in small steps, ending early when the fake stops.
    private func sleepUnlessStopped(_ seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end && !lock.withLock({ stopped }) {
            usleep(useconds_t(max(0, min(end.timeIntervalSinceNow, 0.01)) * 1_000_000))
        }
    }

    // MARK: Configuring

    /// Sets the results of `list`.
    public func set(_ list: List, _ listing: Listing) {
        lock.withLock { listings[list] = listing }
    }

    /// Sets the results of `list`: `items` first, then generated ones up to `count`.
    public func set(_ list: List, items: [FakeGIF] = [], count: Int? = nil, total: Total = .count) {
        set(list, Listing(items: items, count: count, total: total))
    }

    /// Puts `item` in front of `list` (a new trending GIF, for --follow).
    public func prepend(_ item: FakeGIF, to list: List) {
        lock.withLock {
            var listing = listings[list] ?? Listing()
            listing.items.insert(item, at: 0)
            listing.count += 1
            listings[list] = listing
        }
    }

    /// The next `times` calls (to `list`, or any list when nil; at `offset`, or
    /// any offset when nil) fail with `fault`. `Int.max`: every call.
    public func fail(_ fault: Fault, times: Int = 1, list: List? = nil, offset: Int? = nil) {
        lock.withLock { faults.append((list, offset, fault, times)) }
    }

    /// Forgets every queued fault.
    public func clearFaults() {
        lock.withLock { faults.removeAll() }
    }

    /// Calls to `list` (any when nil) at `offset` (any when nil) are answered
    /// after `seconds` (a slow page).
    public func delay(_ seconds: Double, list: List? = nil, offset: Int? = nil) {
        lock.withLock { delays.append((list, offset, seconds)) }
    }

    // MARK: What happened

    /// Every call, in arrival order.
    public var calls: [Call] { lock.withLock { log } }

    /// The calls to `list`.
    public func calls(to list: List) -> [Call] { calls.filter { $0.list == list } }

    /// The `q` of every search call, in order.
    public var searchedQueries: [String] { calls.filter { $0.endpoint == "search" }.compactMap(\.query) }

    /// Waits until `condition` holds or `timeout` seconds pass.
    public func wait(timeout: Double = 60, until condition: () -> Bool) -> Bool {
        server.wait(timeout: timeout, until: condition)
    }

    /// The `index`-th result of a list with no configured item there.
    public static func generated(_ list: List, _ index: Int) -> FakeGIF {
        let prefix: String
        switch list {
        case .trending: prefix = "trend"
        case .search(let query): prefix = String(query.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) }.prefix(12).map(Character.init))
        }
        return FakeGIF.make(id: "\(prefix.isEmpty ? "q" : prefix)G\(index)", title: "\(prefix) result \(index)")
    }

    // MARK: Answering

    /// The answer to a request for `target` (path and query), as the server sends it.
    public func respond(target: String) -> HTTPTestServer.Response {
        let (path, parameters) = Self.parse(target: target)
        let endpoint = path.split(separator: "/").last.map(String.init) ?? ""
        let call = Call(endpoint: endpoint, path: path, query: parameters["q"], offset: parameters["offset"].flatMap { Int($0) },
                        limit: parameters["limit"].flatMap { Int($0) }, key: parameters["api_key"],
                        rating: parameters["rating"], lang: parameters["lang"], status: 0, target: target,
                        time: Date().timeIntervalSince(started), answered: nil)
        let list: List? = endpoint == "trending" ? .trending : (endpoint == "search" ? .search(call.query ?? "") : nil)

        // Log and decide under the lock, on arrival; sleep and build outside it.
        let (plan, delay, position): (Answer, Double, Int) = lock.withLock {
            log.append(call)
            let delay = delays.last {
                ($0.list == nil || $0.list == list) && ($0.offset == nil || $0.offset == max(0, call.offset ?? 0))
            }?.seconds ?? 0
            return (decide(call: call, list: list), delay, log.count - 1)
        }
        var wait = delay
        if case .fault(.slow(let seconds)) = plan { wait += seconds }
        if wait > 0 { sleepUnlessStopped(wait) }
        var answer = plan
        if case .fault(.slow) = plan { answer = lock.withLock { decide(call: call, list: list, faults: false) } }
        let response = build(answer, call: call)
        lock.withLock {
            log[position].status = response.status
            log[position].answered = Date().timeIntervalSince(started)
        }
        return response
    }

    private enum Answer {
        case fault(Fault)
        case missingKey
        case badKey
        case tooLong
        case emptyPastCap
        case page(items: [FakeGIF], total: Int?, offset: Int)
        case notFound
    }

    /// Under the lock.
    private func decide(call: Call, list: List?, faults useFaults: Bool = true) -> Answer {
        guard let list else { return .notFound }
        guard let given = call.key, !given.isEmpty else { return .missingKey }
        guard given == key else { return .badKey }
        if case .search(let query) = list, query.count > 50 { return .tooLong }
        let offset = max(0, call.offset ?? 0)
        if useFaults, let index = faults.firstIndex(where: { ($0.list == nil || $0.list == list) && ($0.offset == nil || $0.offset == offset) && $0.left > 0 }) {
            let fault = faults[index].fault
            if faults[index].left != Int.max { faults[index].left -= 1 }
            if faults[index].left == 0 { faults.remove(at: index) }
            return .fault(fault)
        }
        let listing = listings[list] ?? Listing()
        let served = callsPerList[list, default: 0]
        callsPerList[list] = served + 1
        if offset > list.offsetCap { return .emptyPastCap }
        let limit = min(max(1, call.limit ?? 25), _maxLimit)
        let end = min(offset + limit, listing.count, list.offsetCap + 1)
        var items: [FakeGIF] = []
        if offset < end {
            for index in offset..<end {
                items.append(index < listing.items.count ? listing.items[index] : Self.generated(list, index))
            }
        }
        let total: Int?
        switch listing.total {
        case .count: total = listing.count
        case .fixed(let value): total = value
        case .changing(let values): total = values.isEmpty ? listing.count : values[min(served, values.count - 1)]
        case .missing: total = nil
        }
        return .page(items: items, total: total, offset: offset)
    }

    private func nextResponseID() -> String {
        let n = lock.withLock { () -> Int in
            responseCounter += 1
            return responseCounter
        }
        return String(format: "%08x%08x", n, fnv1a("\(n)") & 0xFFFF_FFFF) + "a5c058e0ba384203b07211f39c5e"
    }

    private func build(_ answer: Answer, call: Call) -> HTTPTestServer.Response {
        func json(_ status: Int, _ body: String) -> HTTPTestServer.Response {
            HTTPTestServer.Response(status: status, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
        func meta(_ status: Int, _ message: String, responseID: String = "") -> String {
            "{\"data\":[],\"meta\":{\"status\":\(status),\"msg\":\(quoteJSON(message)),\"response_id\":\(quoteJSON(responseID))}}"
        }
        switch answer {
        case .notFound:
            return json(404, meta(404, "Not Found"))
        case .missingKey:
            return json(401, meta(401, "No API key found in request"))
        case .badKey:
            return json(401, meta(401, "Unauthorized"))
        case .tooLong:
            return json(414, meta(414, "Request-URI Too Long"))
        case .fault(let fault):
            switch fault {
            case .unauthorized:
                return json(401, meta(401, "Unauthorized"))
            case .rateLimited:
                return json(429, meta(429, "API rate limit exceeded"))
            case .bare(let status, let message):
                return json(status, "{\"message\":\(quoteJSON(message))}")
            case .serverError(let status):
                return HTTPTestServer.Response(
                    status: status, headers: [("Content-Type", "text/html")],
                    body: Array("<html><head><title>\(status) \(HTTPTestServer.reason(status))</title></head><body><h1>\(status)</h1></body></html>\n".utf8))
            case .serverErrorEchoingRequest(let status):
                return json(status, meta(status, "backend failed for GET \(call.target)"))
            case .synthetic:
                return json(200, meta(200, "OK"))
            case .notJSON:
                return HTTPTestServer.Response(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>maintenance</html>".utf8))
            case .slow:
                return json(500, meta(500, "unreachable"))
            }
        case .emptyPastCap:
            // As captured in the corpus (empty_offset_ge_5000.json).
            return json(200, "{\"data\":[],\"pagination\":{\"total_count\":0,\"count\":0,\"offset\":0},"
                        + "\"meta\":{\"status\":200,\"msg\":\"OK\",\"response_id\":\(quoteJSON(nextResponseID()))}}")
        case .page(let items, let total, let offset):
            let data = items.map(\.json).joined(separator: ",")
            let totalText = total.map { "\"total_count\":\($0)," } ?? ""
            return json(200, "{\"data\":[\(data)],\"pagination\":{\(totalText)\"count\":\(items.count),\"offset\":\(offset)},"
                        + "\"meta\":{\"status\":200,\"msg\":\"OK\",\"response_id\":\(quoteJSON(nextResponseID()))}}")
        }
    }

    /// The path and the decoded query parameters of a request target.
    static func parse(target: String) -> (path: String, parameters: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var parameters: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if parameters[name] == nil { parameters[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return (String(target[..<mark]), parameters)
    }
}

// MARK: - JSON text helpers

extension FakeGiphy {
    /// A JSON string literal for `text` (quotes, backslashes and control characters escaped).
    public static func jsonString(_ text: String) -> String { quoteJSON(text) }
}

/// A JSON string literal for `text`.
public func quoteJSON(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += String(format: "\\u%04x", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// 64-bit FNV-1a of a string's UTF-8, for numbers that depend only on an id.
func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}

/// The raw text of the value of a top-level member of a JSON object text.
func rawMember(_ name: String, of text: String) -> String? {
    let chars = Array(text.utf8)
    var index = 0
    func skipSpace() { while index < chars.count, [0x20, 0x09, 0x0A, 0x0D].contains(chars[index]) { index += 1 } }
    skipSpace()
    guard index < chars.count, chars[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    while true {
        skipSpace()
        guard index < chars.count, chars[index] == UInt8(ascii: "\"") else { return nil }
        let keyStart = index
        guard skipValue(chars, &index) else { return nil }
        let key = String(decoding: chars[(keyStart + 1)..<(index - 1)], as: UTF8.self)
        skipSpace()
        guard index < chars.count, chars[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        skipSpace()
        let valueStart = index
        guard skipValue(chars, &index) else { return nil }
        if key == name { return String(decoding: chars[valueStart..<index], as: UTF8.self) }
        skipSpace()
        guard index < chars.count else { return nil }
        if chars[index] == UInt8(ascii: ",") { index += 1; continue }
        return nil
    }
}

/// The raw texts of the elements of a JSON array text.
func rawElements(ofArray text: String) -> [String] {
    let chars = Array(text.utf8)
    var index = 0
    var elements: [String] = []
    func skipSpace() { while index < chars.count, [0x20, 0x09, 0x0A, 0x0D].contains(chars[index]) { index += 1 } }
    skipSpace()
    guard index < chars.count, chars[index] == UInt8(ascii: "[") else { return [] }
    index += 1
    while true {
        skipSpace()
        guard index < chars.count else { return elements }
        if chars[index] == UInt8(ascii: "]") { return elements }
        let start = index
        guard skipValue(chars, &index) else { return elements }
        elements.append(String(decoding: chars[start..<index], as: UTF8.self))
        skipSpace()
        guard index < chars.count else { return elements }
        if chars[index] == UInt8(ascii: ",") { index += 1 }
    }
}

/// Moves `index` past one JSON value (string, object, array or scalar).
private func skipValue(_ chars: [UInt8], _ index: inout Int) -> Bool {
    guard index < chars.count else { return false }
    func skipString() -> Bool {
        index += 1
        while index < chars.count {
            if chars[index] == UInt8(ascii: "\\") { index += 2; continue }
            if chars[index] == UInt8(ascii: "\"") { index += 1; return true }
            index += 1
        }
        return false
    }
    switch chars[index] {
    case UInt8(ascii: "\""):
        return skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
        var depth = 0
        while index < chars.count {
            let c = chars[index]
            if c == UInt8(ascii: "\"") {
                guard skipString() else { return false }
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
            if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { index += 1; return true }
            }
            index += 1
        }
        return false
    default:
        while index < chars.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(chars[index]) {
            index += 1
        }
        return true
    }
}
