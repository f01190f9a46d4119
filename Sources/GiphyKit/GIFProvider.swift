import FoundationEssentials
import Glibc
import RecordKit
import SposureKit

/// A GIF API: everything that differs between providers, in one type each
/// (``GiphyAPI``, ``KlipyAPI``). The planner and the lister ask the protocol
/// and never name a provider; a third API is one more file that conforms and
/// one line in ``GIFProvider/registry``.
public protocol GIFAPI: Sendable {
    /// The name in `page` and `gif` records (`provider`) and on the command line.
    var name: String { get }
    /// The name people know it by.
    var displayName: String { get }
    /// The environment variable that holds the key.
    var keyVariable: String { get }
    /// The environment variable that points at another API base.
    var urlVariable: String { get }
    /// The real API.
    var defaultBase: String { get }
    /// Where to get a key ("free at …").
    var keyHelp: String { get }
    /// The sentence that sends a person for a key, when it is missing.
    var keyAdvice: String { get }
    /// The client-side allowance when `--rate` gives none.
    var defaultRate: (calls: Int, period: Double) { get }
    /// The largest page the API serves.
    var maxLimit: Int { get }
    /// The longest query it takes; nil: no limit of its own.
    var maxQueryLength: Int? { get }
    /// Whether the planner asks for the count of results first (a ping); an
    /// API that says no count is planned by page number without a call.
    var countsResults: Bool { get }
    /// Whether requests carry this install's customer id.
    var usesCustomerID: Bool { get }
    /// The renditions (sizes) it has that are GIF files, for `--rendition`.
    var renditions: [String] { get }
    /// The rendition asked for when `--rendition` names none of its own.
    var defaultRendition: String { get }
    /// `rendition`, then the others to fall back on, in order.
    func chain(for rendition: String) -> [String]

    /// The pages of one result list: up to `maxResults` (nil: all there are,
    /// as far as `total` says), `limit` results each.
    func pages(endpoint: GiphyEndpoint, query: String?, section: String, total: Int?, limit: Int,
               maxResults: Int?, rating: String, lang: String) -> [PageRequest]
    /// A page record's paging fields read into `page` (its other fields
    /// already read); throws what is wrong.
    func readPaging(_ record: JSONRecord, into page: inout PageRequest) throws(PageRequest.PageError)
    /// The page record of `page`, in this API's field order.
    func record(of page: PageRequest) -> JSONRecord
    /// The largest offset `endpoint` serves (past it a page is empty); nil: no cap.
    func offsetCap(for endpoint: GiphyEndpoint) -> Int?

    /// The URL of `page` with `key` and `customerID` in it: for libcurl only.
    func url(_ page: PageRequest, base: String, key: String, customerID: String) -> String
    /// The URL of `page` as it may be shown: the key and customer id masked.
    func displayURL(_ page: PageRequest, base: String, hasCustomerID: Bool) -> String
    /// `text` with whatever this API puts the key in masked (beyond the key itself).
    func masked(_ text: String) -> String

    /// Reads an answer: its HTTP `status` and `body`; `url` (already masked) for messages.
    func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse
    /// The results of an answer that `page` keeps.
    func kept(_ items: [JSONRecord], page: PageRequest) -> ArraySlice<JSONRecord>
    /// A result's id; nil when it has none usable.
    func id(of item: JSONRecord) -> String?
    /// What a result says of itself: its title, slug, tags and creator
    /// (matched against `--avoid`; the creator credited). An API that
    /// implements none gives its title alone.
    func text(of item: JSONRecord) -> ResultText
    /// The `gif` record of `item`, the `index`-th result of `page`, in the
    /// first of `choices` it has; fields of `pageRecord` that a page does not
    /// own are carried on.
    func make(item: JSONRecord, index: Int, page: PageRequest, pageRecord: JSONRecord?,
              choices: [String]) -> Result<JSONRecord, GIFRecord.Problem>

    /// Whether calls need a key; an API that needs none is always at hand,
    /// and the one rounds use when no key is set (GIFAPI+Keyless.swift).
    var needsKey: Bool { get }
    /// Requests at once this API is sent; nil: as many as `--concurrency`.
    var maxConcurrency: Int? { get }
    /// What the player cannot show of `item` (its MIME type), left out
    /// before any fetch and counted; nil: it can be shown.
    func unplayable(_ item: JSONRecord) -> String?
}

/// A GIF API `giphy-pages` can speak to, by name: what a `page` record's
/// `provider` field says. A record without one is Giphy's, so recordings
/// made before there were two replay unchanged.
public struct GIFProvider: RawRepresentable, Hashable, Sendable {
    /// The API's name.
    public let rawValue: String

    /// The registered API of that name; nil for any other name.
    public init?(rawValue: String) {
        guard Self.registry.contains(where: { $0.name == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(registered name: String) { rawValue = name }

    /// The API itself.
    public var api: any GIFAPI {
        Self.registry.first { $0.name == rawValue } ?? GiphyAPI()
    }

    /// Giphy.
    public static let giphy = GIFProvider(registered: GiphyAPI().name)
    /// Klipy.
    public static let klipy = GIFProvider(registered: KlipyAPI().name)
    /// Wikimedia Commons: no key.
    public static let commons = GIFProvider(registered: CommonsAPI().name)
    /// The provider of a page record that names none.
    public static let recordDefault = giphy

    private static let lock = Lock()
    nonisolated(unsafe) private static var apis: [any GIFAPI] = [GiphyAPI(), KlipyAPI(), CommonsAPI()]

    /// The APIs there are, in the order a key chooses them (the first whose key is set).
    public static var registry: [any GIFAPI] { lock.withLock { apis } }

    /// Every registered provider, in registry order.
    public static var allCases: [GIFProvider] { registry.map { GIFProvider(registered: $0.name) } }

    /// Adds `api` to the registry (a new one goes last; one of the same name
    /// is replaced). The two built in are registered already.
    public static func register(_ api: any GIFAPI) {
        lock.withLock {
            if let index = apis.firstIndex(where: { $0.name == api.name }) { apis[index] = api } else { apis.append(api) }
        }
    }

    /// Takes the API named `name` out of the registry (for tests).
    public static func unregister(_ name: String) {
        lock.withLock { apis.removeAll { $0.name == name } }
    }

    public var keyVariable: String { api.keyVariable }
    public var urlVariable: String { api.urlVariable }
    public var defaultBase: String { api.defaultBase }
    public var displayName: String { api.displayName }
    public var keyHelp: String { api.keyHelp }
    public var defaultRate: (calls: Int, period: Double) { api.defaultRate }
    public var maxLimit: Int { api.maxLimit }
    public var defaultRendition: String { api.defaultRendition }

    /// The key in `environment`, when set and not blank ("" for an API that needs none).
    public func key(in environment: [String: String]) -> String? {
        guard api.needsKey else { return "" }
        guard let key = environment[keyVariable]?.trimmingWhitespaceAndNewlines(), !key.isEmpty else { return nil }
        return key
    }

    /// The provider to use when `--provider` names none: the first in the
    /// registry whose key is set; nil when none is.
    public static func chosen(environment: [String: String] = ProcessInfo.processInfo.environment) -> GIFProvider? {
        allCases.first { $0.key(in: environment) != nil }
    }

    /// What to say when no key at all is set: every key, where to get each, and the offline demo.
    public static var noKeyMessage: String {
        let keys = keyed.map { "\($0.keyVariable) (a \($0.displayName) key, \($0.keyHelp))" }
        let last = keyed.last.map { "export \($0.keyVariable)=your-key" } ?? ""
        return "no API key: set \(keys.joined(separator: " or ")), e.g. \(last). Without a key, `make demo` (pipelines/demo) plays offline."
    }

    /// The providers that need a key, in registry order.
    public static var keyed: [GIFProvider] { allCases.filter(\.api.needsKey) }

    /// `provider` names, "giphy, klipy or commons", for messages.
    public static var namesText: String {
        let names = allCases.map(\.rawValue)
        return names.count > 2 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names.joined(separator: " or ")
    }
}

extension GIFProvider {
    /// The GIF's name across providers (`giphy:ID`, `klipy:ID`), as ratings
    /// and repeats know it; nil when the result has no usable id.
    public func gifKey(of item: JSONRecord) -> String? {
        api.id(of: item).map { rawValue + ":" + $0 }
    }

    /// Reads an answer of this API (``GIFAPI/interpret(status:body:url:)``).
    public func interpret(status: Int, body: [UInt8], url: String) -> GiphyResponse {
        api.interpret(status: status, body: body, url: url)
    }
}
