import NetKit
import FoundationEssentials
import Glibc
import SposureKit

/// Where a GIF API is and the key to it, from the environment. The key is a
/// secret: it goes into request URLs and nowhere else (Klipy's is a path
/// segment, Giphy's the `api_key` parameter; both are masked in what is shown).
public struct APIAccess: Sendable {
    /// The API spoken to.
    public let provider: GIFProvider
    /// The API base, without a trailing slash.
    public let base: String
    private let key: String
    /// Klipy's `customer_id`: a random id kept in the data folder.
    public let customerID: String

    /// Access to `provider` from its key variable and `--api-url`, else its
    /// URL variable, else the real API.
    public init(provider: GIFProvider = .recordDefault, apiURL: String?, customerID: String = "",
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(MissingKey) {
        guard let key = provider.key(in: environment) else { throw MissingKey(provider: provider) }
        self.provider = provider
        self.key = key
        self.customerID = customerID
        let base = apiURL ?? environment[provider.urlVariable].flatMap { $0.isEmpty ? nil : $0 } ?? provider.defaultBase
        self.base = PageRequest.trimmed(base)
    }

    /// No key in the environment.
    public struct MissingKey: Error, CustomStringConvertible, Sendable {
        /// The provider whose key is missing.
        public var provider: GIFProvider = .recordDefault

        public var description: String {
            let others = GIFProvider.keyed.filter { $0 != provider }
                .map { "\($0.displayName): \($0.keyVariable) (\($0.keyHelp))" }
                + GIFProvider.allCases.filter { !$0.api.needsKey }.map { "\($0.displayName), with no key (plan --provider \($0.rawValue))" }
            let instead = others.isEmpty ? "" : " Or use \(others.joined(separator: "; or "))."
            return """
                \(provider.keyVariable) is not set. \(provider.api.keyAdvice), \
                then: export \(provider.keyVariable)=your-key.\(instead) \
                Without a key, pipelines/demo runs offline (make demo).
                """
        }
    }

    /// The URL of `page`, key included: for libcurl only.
    public func url(_ page: PageRequest) -> String {
        provider.api.url(page, base: base, key: key, customerID: customerID)
    }

    /// The URL of `page` as it may be shown.
    public func displayURL(_ page: PageRequest) -> String {
        provider.api.displayURL(page, base: base, hasCustomerID: !customerID.isEmpty)
    }

    /// What names `page`'s answer in the API cache: the shown URL without the
    /// base (endpoint and parameters, the key masked), so the answer serves
    /// whichever host it came from.
    public func cacheKey(_ page: PageRequest) -> String {
        let shown = displayURL(page)
        return shown.hasPrefix(base) ? String(shown.dropFirst(base.count)) : shown
    }

    /// `text` with the key hidden, whatever put it there.
    public func redact(_ text: String) -> String {
        var text = text
        if key.count >= 4 {
            text = text.replacingBytes(key, with: "REDACTED")
            let escaped = PageRequest.escape(key)
            if escaped != key { text = text.replacingBytes(escaped, with: "REDACTED") }
        }
        if customerID.count >= 8 { text = text.replacingBytes(customerID, with: "REDACTED") }
        // Every API's own masking (a key as a path segment), whichever this is.
        return GIFProvider.registry.reduce(redactedURL(text)) { $1.masked($0) }
    }

    /// `body`, an API's answer, with every string in it (member names too)
    /// passed through `redact`: a key the answer echoes (in a title, a URL,
    /// however escaped) reaches no record and no file of the API cache. The
    /// same bytes when nothing changed, or when the body is not JSON (the
    /// failure's message is redacted as it is made).
    public static func masked(answer body: [UInt8], redact: (String) -> String) -> [UInt8] {
        guard let parsed = try? JSONRecord.parseAnswer(body), parsed.record.rewriteStrings(redact) else { return body }
        return parsed.record.serialized()
    }

    /// `body`, an answer of this API, with this key masked in every string of it.
    public func masked(answer body: [UInt8]) -> [UInt8] { Self.masked(answer: body, redact: redact) }

    /// What to say when the API refuses the key.
    public func refusal(_ message: String) -> String {
        redact("the \(provider.displayName) API refused the key (\(message)): check \(provider.keyVariable); a new key takes a few minutes to work")
    }
}

/// The old name, from when Giphy was the only API.
public typealias GiphyAccess = APIAccess
