import Hashing
import NetKit
import FoundationEssentials
import Glibc
import SposureKit

/// API answers kept on disk for a while, so a second round on the same query
/// costs no call and works without the network.
///
/// `<cache>/api/<provider>/<2 hex>/<sha256 of the request>.json`, the request
/// being ``APIAccess/cacheKey(_:)``: endpoint and parameters with the key
/// masked, so an entry is keyed by provider, endpoint and parameters, never by
/// the key or the host. Entries are written to a temporary name and
/// renamed (whole or not at all); one is fresh while its age is under the TTL.
public struct APICache: Sendable {
    /// `<cache>/api`.
    public let folder: String
    /// Seconds an answer stays fresh.
    public let ttl: Double

    /// The API cache under the cache folder `root` (``Folders/cache(environment:)``),
    /// answers kept `ttl` seconds; nil when `ttl` is 0 (no cache).
    public init?(root: String, ttl: Double) {
        guard ttl > 0 else { return nil }
        let absolute = Paths.absolute(root)
        folder = absolute + "/api"
        self.ttl = ttl
    }

    /// The file that holds the answer for `url` (a cache key, without the API key) of `provider`.
    public func path(provider: GIFProvider, url: String) -> String {
        let name = SHA256.hash(data: "\(provider.rawValue)\n\(url)".utf8).hexString
        return "\(folder)/\(provider.rawValue)/\(name.prefix(2))/\(name).json"
    }

    /// The kept answer for `url`, when there is one younger than the TTL.
    public func read(provider: GIFProvider, url: String, now: Double = Date().timeIntervalSince1970) -> [UInt8]? {
        let path = path(provider: provider, url: url)
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let age = now - Double(info.st_mtim.tv_sec) - Double(info.st_mtim.tv_nsec) / 1e9
        // An answer dated in the future (a clock set back) is not taken as fresh forever.
        guard age >= 0, age < ttl else { return nil }
        return try? readFile(path, maxBytes: Self.maxAnswerBytes, owner: .program)
    }

    /// Keeps `body`, the answer for `url`; throws when it cannot be written.
    public func write(provider: GIFProvider, url: String, body: [UInt8]) throws(FileError) {
        let path = path(provider: provider, url: url)
        try Folders.make(Paths.parent(path), mode: 0o777)  // a cache, not private: the umask decides
        // Not synced: this runs on the thread that drives curl, a lost answer
        // is asked again, and the rename keeps each file whole.
        try writeAtomically(body, to: path, as: .program, durable: false)
    }

    /// The largest answer read back (an API page is tens of KiB).
    static let maxAnswerBytes = 16 << 20

    /// The fresh answer kept for `page` (asked through `access`), read, with
    /// `redact` (else the access's own) masking every string of it: a file
    /// kept before answers were masked may hold a key. Nil when there is
    /// none, or it is not a page of results.
    public func answer(_ page: PageRequest, access: APIAccess, redact: ((String) -> String)? = nil) -> GiphyResponse.Page? {
        guard let kept = read(provider: page.provider, url: access.cacheKey(page)) else { return nil }
        let body = APIAccess.masked(answer: kept, redact: redact ?? access.redact)
        guard case .page(let answer) = page.provider.interpret(status: 200, body: body, url: access.displayURL(page)) else { return nil }
        return answer
    }

    /// Keeps `body`, the good answer to `page` (asked through `access`),
    /// already masked (``APIAccess/masked(answer:)``).
    public func keep(_ page: PageRequest, access: APIAccess, body: [UInt8]) throws(FileError) {
        try write(provider: page.provider, url: access.cacheKey(page), body: body)
    }
}
