// A Wikimedia Commons API (MediaWiki's api.php) on 127.0.0.1 for end-to-end
// tests, on top of HTTPTestServer, written from MediaWiki's API:Search,
// API:Imageinfo, API:Etiquette and Manual:Maxlag parameter.
//
//   giphy-pages ──GET /w/api.php?action=query&format=json&formatversion=2&generator=search
//               &gsrsearch&gsrnamespace=6&gsrlimit&gsroffset&prop=imageinfo&iiprop&iiurlwidth&maxlag──▶ respond
//                                                        ├─ log the call (and how many were in flight)
//                                                        ├─ no User-Agent, or one without a contact → 403 (HTML)
//                                                        ├─ a second request while one is answered → 429 ratelimited
//                                                        ├─ a queued fault: maxlag (200 + Retry-After: 1), an HTML
//                                                        │  page instead of JSON, 403, a 5xx
//                                                        └─ the files of gsrsearch from gsroffset, pages in a
//                                                           shuffled order with their `index`, `continue` while more
//
// formatversion=2: `query.pages` is an array; no results: no `query` at all.
// A file's thumbnail is `iiurlwidth` wide unless the file is narrower (then
// the original's URL); an SVG, TIFF, PDF or video has a JPEG or PNG thumbnail.

import Foundation

/// One file of the fake's data set.
public struct FakeCommonsFile: Sendable {
    public var pageid: Int
    /// Its name, without `File:` (`Araneus diadematus.jpg`).
    public var name: String
    public var mime: String
    public var width: Int
    public var height: Int
    public var size: Int
    /// `extmetadata.Artist.value`, HTML as Commons gives it; nil: none.
    public var artist: String?
    public var license: String? = "CC BY-SA 4.0"
    public var licenseURL: String? = "https://creativecommons.org/licenses/by-sa/4.0"
    /// `ImageDescription`, HTML; nil: none.
    public var description: String?
    /// false: the file's image info has no `extmetadata` at all.
    public var metadata = true

    /// A file.
    public init(pageid: Int, name: String, mime: String, width: Int = 4000, height: Int = 3000, size: Int = 2_811_227,
                artist: String? = "Jane Doe") {
        self.pageid = pageid
        self.name = name
        self.mime = mime
        self.width = width
        self.height = height
        self.size = size
        self.artist = artist
    }

    /// The file's path on the media host.
    public var path: String { "/wikipedia/commons/a/ab/\(name.replacingOccurrences(of: " ", with: "_"))" }

    /// The thumbnail's name suffix and type: what Commons renders a file of this type to.
    var thumbFormat: (suffix: String, mime: String) {
        switch mime {
        case "image/svg+xml": return (".png", "image/png")
        case "image/tiff", "application/pdf", "video/webm", "image/vnd.djvu": return (".jpg", "image/jpeg")
        default: return ("", mime)
        }
    }

    /// Where the picture shown at `thumbWidth` lives: the thumbnail's path,
    /// or the original's when the file is no wider and of a type shown as it is.
    public func thumbPath(width thumbWidth: Int) -> String {
        let file = name.replacingOccurrences(of: " ", with: "_")
        let suffix = thumbFormat.suffix
        return suffix.isEmpty && width <= thumbWidth ? path : "/wikipedia/commons/thumb/a/ab/\(file)/\(thumbWidth)px-\(file)\(suffix)"
    }

    /// The file as one page of `query.pages`, media on `host`, the thumbnail `width` wide.
    func json(host: String, index: Int, thumbWidth: Int?) -> String {
        let file = name.replacingOccurrences(of: " ", with: "_")
        var info: [String] = ["\"size\":\(size)", "\"width\":\(width)", "\"height\":\(height)"]
        if let thumbWidth {
            let original = thumbPath(width: thumbWidth) == path
            let w = original ? width : thumbWidth
            let h = original ? height : Int((Double(height) * Double(thumbWidth) / Double(width)).rounded())
            info += ["\"thumburl\":\(quoteJSON(host + thumbPath(width: thumbWidth)))", "\"thumbwidth\":\(w)", "\"thumbheight\":\(h)",
                     "\"thumbmime\":\(quoteJSON(thumbFormat.mime))"]
        }
        info += ["\"url\":\(quoteJSON(host + path))",
                 "\"descriptionurl\":\(quoteJSON("https://commons.wikimedia.org/wiki/File:\(file)"))",
                 "\"descriptionshorturl\":\(quoteJSON("https://commons.wikimedia.org/w/index.php?curid=\(pageid)"))",
                 "\"mime\":\(quoteJSON(mime))"]
        if metadata {
            var fields: [String] = []
            func field(_ name: String, _ value: String?) {
                if let value { fields.append("\(quoteJSON(name)):{\"value\":\(quoteJSON(value)),\"source\":\"commons-desc-page\"}") }
            }
            field("Artist", artist)
            field("LicenseShortName", license)
            field("LicenseUrl", licenseURL)
            field("ImageDescription", description)
            info.append("\"extmetadata\":{\(fields.joined(separator: ","))}")
        }
        return "{\"pageid\":\(pageid),\"ns\":6,\"title\":\(quoteJSON("File:" + name)),\"index\":\(index),\"imageinfo\":[{\(info.joined(separator: ","))}]}"
    }

    /// Ten files of every kind a search brings: four the player shows (one
    /// narrower than a thumbnail), four it cannot (SVG, TIFF, PDF, WebM), an
    /// author in HTML with entities, a soft hyphen and a script, and a file
    /// without metadata.
    public static func sample(_ query: String, from first: Int = 1000) -> [FakeCommonsFile] {
        var files = [
            FakeCommonsFile(pageid: first + 1, name: "\(query) macro.jpg", mime: "image/jpeg",
                            artist: #"<a href="//commons.wikimedia.org/wiki/User:Jane" title="User:Jane">Jane&nbsp;Doe</a> &amp; Jo&shy;hann M&uuml;ller"#),
            FakeCommonsFile(pageid: first + 2, name: "\(query) diagram.png", mime: "image/png", width: 800, height: 600, size: 91_000,
                            artist: "Museum of Natural History"),
            FakeCommonsFile(pageid: first + 3, name: "\(query) icon.svg", mime: "image/svg+xml", width: 512, height: 512, size: 4_000),
            FakeCommonsFile(pageid: first + 4, name: "\(query) walking.gif", mime: "image/gif", width: 320, height: 240, size: 410_000),
            FakeCommonsFile(pageid: first + 5, name: "\(query) plate 12.tif", mime: "image/tiff"),
            FakeCommonsFile(pageid: first + 6, name: "\(query) on a leaf.webp", mime: "image/webp", width: 1600, height: 1200, size: 220_000),
            FakeCommonsFile(pageid: first + 7, name: "\(query) of Europe.pdf", mime: "application/pdf"),
            FakeCommonsFile(pageid: first + 8, name: "\(query) hunting.webm", mime: "video/webm", width: 1920, height: 1080),
            FakeCommonsFile(pageid: first + 9, name: "\(query) in a jar.jpg", mime: "image/jpeg", width: 1280, height: 960,
                            artist: "<script>alert(\"x\")</script><style>b{}</style>An&#x6E;e&#8203; &#27;[31mKo\u{00AD}walski&#27;[0m<br>Museum &lt;3"),
            FakeCommonsFile(pageid: first + 10, name: "\(query) no metadata.jpg", mime: "image/jpeg"),
        ]
        files[1].license = "CC0"
        files[1].licenseURL = "http://creativecommons.org/publicdomain/zero/1.0/deed.en"
        files[1].description = "<p>A <i>\(query)</i> drawn for a plate</p>"
        files[8].license = "Public domain"
        files[8].licenseURL = nil
        files[9].metadata = false
        return files
    }

    /// Plain JPEG photographs, `count` of them, for paging.
    public static func photos(_ query: String, count: Int) -> [FakeCommonsFile] {
        (0..<count).map { FakeCommonsFile(pageid: 5000 + $0, name: "\(query) photo \($0 + 1).jpg", mime: "image/jpeg") }
    }
}

/// A Wikimedia Commons api.php: generator=search over the fake's files.
public final class FakeCommons: @unchecked Sendable {
    /// A way for one call to fail.
    public enum Fault: Sendable, Equatable {
        /// `{"error":{"code":"maxlag",…}}` with `Retry-After: 1`, at this HTTP status (200, as Wikimedia does; or 503).
        case maxlag(status: Int)
        /// 200 with an HTML page (a captive portal, an error page of a proxy).
        case html
        /// 403 with Wikimedia's HTML refusal.
        case forbidden
        /// A 5xx with an HTML body.
        case serverError(Int)
    }

    /// One call the fake received.
    public struct Call: Sendable {
        public var search: String?
        public var offset: Int?
        public var limit: Int?
        public var thumbWidth: Int?
        public var userAgent: String?
        /// Requests being answered when this one came (1: only itself).
        public var inFlight: Int
        public var status: Int
        public var target: String
    }

    public let server: HTTPTestServer
    /// The path of api.php.
    public static let path = "/w/api.php"
    private let lock = NSLock()
    private var listings: [String: [FakeCommonsFile]] = [:]
    private var faults: [(fault: Fault, left: Int)] = []
    private var log: [Call] = []
    private var active = 0
    private var hold: Double
    private var media: [UInt8]?
    private var mediaByName: [String: [UInt8]] = [:]

    /// A fake on a new server; each answer takes `hold` seconds, so that a
    /// second request sent meanwhile is seen (and refused, as a client that
    /// does not wait its turn).
    public init(hold: Double = 0.02) throws {
        self.hold = hold
        server = try HTTPTestServer()
        server.route(Self.path) { [unowned self] request in respond(request) }
    }

    deinit { server.stop() }

    /// `http://127.0.0.1:<port>/w/api.php`: the value of `COMMONS_API_URL`.
    public var apiURL: String { server.url(Self.path) }

    public func stop() { server.stop() }

    /// A search for `query` (case and spaces aside) finds `files`, in this order.
    public func set(_ query: String, _ files: [FakeCommonsFile]) {
        lock.withLock { listings[Self.normalized(query)] = files }
    }

    /// Each answer takes `seconds`.
    public func holdAnswers(_ seconds: Double) { lock.withLock { hold = seconds } }

    /// Thumbnails and originals point at this server, which serves `bytes` for each.
    public func serveMedia(_ bytes: [UInt8]) { lock.withLock { media = bytes } }

    /// Thumbnails and originals point at this server, which serves `bytes`
    /// as `name`'s picture at the URL listed for it (``FakeCommonsFile/thumbPath(width:)``)
    /// and at no other: an original fetched where a thumbnail was listed is a 404.
    public func serveMedia(_ bytes: [UInt8], forFile name: String) { lock.withLock { mediaByName[name] = bytes } }

    /// The next `times` calls fail with `fault` (`Int.max`: every call).
    public func fail(_ fault: Fault, times: Int = 1) {
        lock.withLock { faults.append((fault, times)) }
    }

    /// Every call, in arrival order.
    public var calls: [Call] { lock.withLock { log } }

    /// `q`, its `filetype:` keywords taken off, lowercased, spaces folded.
    static func normalized(_ search: String) -> String {
        search.split(separator: " ").filter { !$0.lowercased().hasPrefix("filetype:") }.joined(separator: " ").lowercased()
    }

    /// Whether a User-Agent says who sends it, as Wikimedia's policy asks: a URL or an e-mail address.
    public static func hasContact(_ agent: String?) -> Bool {
        guard let agent, !agent.isEmpty else { return false }
        return agent.contains("http://") || agent.contains("https://") || agent.contains("@")
    }

    // MARK: Answering

    private func respond(_ request: HTTPTestServer.Request) -> HTTPTestServer.Response {
        let (_, parameters) = FakeGiphy.parse(target: request.target)
        let inFlight = lock.withLock { () -> Int in
            active += 1
            return active
        }
        defer { lock.withLock { active -= 1 } }
        let (wait, fault): (Double, Fault?) = lock.withLock {
            guard let index = faults.firstIndex(where: { $0.left > 0 }) else { return (hold, nil) }
            let fault = faults[index].fault
            if faults[index].left != Int.max { faults[index].left -= 1 }
            if faults[index].left == 0 { faults.remove(at: index) }
            return (hold, fault)
        }
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let agent = request.header("User-Agent")
        let response: HTTPTestServer.Response
        if !Self.hasContact(agent) {
            response = Self.refusal
        } else if inFlight > 1 {
            response = Self.json(429, #"{"error":{"code":"ratelimited","info":"You've exceeded your rate limit. Please wait some time and try again."}}"#)
        } else if let fault {
            switch fault {
            case .maxlag(let status):
                var lagged = Self.json(status, #"{"error":{"code":"maxlag","info":"Waiting for 10.64.16.8: 6 seconds lagged","host":"10.64.16.8","lag":6,"type":"db","*":"See https://commons.wikimedia.org/w/api.php for API usage."},"servedby":"mw1234"}"#)
                lagged.headers += [("Retry-After", "1"), ("X-Database-Lag", "6"), ("MediaWiki-API-Error", "maxlag")]
                response = lagged
            case .html:
                response = HTTPTestServer.Response(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
                                                   body: Array("<!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body><p>Our servers are currently under maintenance.</p></body></html>\n".utf8))
            case .forbidden:
                response = Self.refusal
            case .serverError(let status):
                response = HTTPTestServer.Response(status: status, headers: [("Content-Type", "text/html")],
                                                   body: Array("<html><body><h1>\(status)</h1></body></html>\n".utf8))
            }
        } else {
            response = page(parameters)
        }
        let call = Call(search: parameters["gsrsearch"], offset: parameters["gsroffset"].flatMap { Int($0) },
                        limit: parameters["gsrlimit"].flatMap { Int($0) }, thumbWidth: parameters["iiurlwidth"].flatMap { Int($0) },
                        userAgent: agent, inFlight: inFlight, status: response.status, target: request.target)
        lock.withLock { log.append(call) }
        return response
    }

    /// The files of the search from `gsroffset`, `gsrlimit` of them.
    private func page(_ parameters: [String: String]) -> HTTPTestServer.Response {
        guard parameters["action"] == "query", parameters["generator"] == "search", parameters["gsrnamespace"] == "6",
              let search = parameters["gsrsearch"], !search.isEmpty else {
            return Self.json(200, #"{"error":{"code":"badparams","info":"The fake serves generator=search in the File namespace only."}}"#)
        }
        let offset = parameters["gsroffset"].flatMap { Int($0) } ?? 0
        let limit = min(50, max(1, parameters["gsrlimit"].flatMap { Int($0) } ?? 10))
        let (files, bytes, named) = lock.withLock { (listings[Self.normalized(search)] ?? [], media, mediaByName) }
        let end = min(files.count, offset + limit)
        guard offset < end else { return Self.json(200, #"{"batchcomplete":true}"#) }
        let host = bytes == nil && named.isEmpty ? "https://upload.wikimedia.org" : server.url("")
        let thumbWidth = parameters["iiurlwidth"].flatMap { Int($0) }
        for file in files[offset..<end] {
            if let picture = named[file.name], let thumbWidth {
                server.route(file.thumbPath(width: thumbWidth), response: .ok(picture, contentType: file.thumbFormat.mime))
            } else if let bytes {
                server.route(file.path, response: .ok(bytes, contentType: file.mime))
            }
        }
        var pages = files[offset..<end].enumerated().map { ($0.offset + offset + 1, $0.element) }
        // The API gives pages in any order (by page id, as it happens): `index` is the search's.
        pages.sort { ($0.1.pageid % 7, $0.1.pageid) < ($1.1.pageid % 7, $1.1.pageid) }
        let items = pages.map { $0.1.json(host: host, index: $0.0, thumbWidth: thumbWidth) }.joined(separator: ",")
        let more = end < files.count ? "\"continue\":{\"gsroffset\":\(end),\"continue\":\"gsroffset||\"}," : ""
        return Self.json(200, "{\"batchcomplete\":true,\(more)\"query\":{\"pages\":[\(items)]}}")
    }

    private static func json(_ status: Int, _ body: String) -> HTTPTestServer.Response {
        HTTPTestServer.Response(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(body.utf8))
    }

    /// What Wikimedia answers a client that does not say who it is.
    static let refusal = HTTPTestServer.Response(
        status: 403, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Array("<!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body><p>Please set a user-agent and respect our robot policy https://w.wiki/4wJS.</p></body></html>\n".utf8))
}
