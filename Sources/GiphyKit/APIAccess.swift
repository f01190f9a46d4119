import FetchKit
import Foundation
import SposureKit

/// Where the API is and the key to it, from the environment. The key is a
/// secret: it goes into request URLs and nowhere else.
public struct GiphyAccess: Sendable {
    /// The default API base.
    public static let defaultBase = "https://api.giphy.com"

    /// The API base, without a trailing slash.
    public let base: String
    private let key: String

    /// Access from `GIPHY_API_KEY` and `--api-url`, else `GIPHY_API_URL`, else the real API.
    public init(apiURL: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(MissingKey) {
        guard let key = environment["GIPHY_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw MissingKey()
        }
        self.key = key
        let base = apiURL ?? environment["GIPHY_API_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultBase
        self.base = PageRequest.trimmed(base)
    }

    /// No key in the environment.
    public struct MissingKey: Error, CustomStringConvertible, Sendable {
        public var description: String {
            """
            GIPHY_API_KEY is not set. Get a free key at https://developers.giphy.com/dashboard/ \
            (create an app, choose "API"), then: export GIPHY_API_KEY=your-key. \
            Without a key, pipelines/demo runs offline.
            """
        }
    }

    /// The URL of `page`, key included: for libcurl only.
    public func url(_ page: PageRequest) -> String { page.url(base: base, key: key) }

    /// The URL of `page` as it may be shown.
    public func displayURL(_ page: PageRequest) -> String { page.displayURL(base: base) }

    /// `text` with the key hidden, whatever put it there.
    public func redact(_ text: String) -> String {
        guard key.count >= 4 else { return redactedURL(text) }
        return redactedURL(text.replacingOccurrences(of: key, with: "REDACTED"))
    }

    /// What to say when the API refuses the key.
    public func refusal(_ message: String) -> String {
        redact("the Giphy API refused the key (\(message)): check GIPHY_API_KEY; a new key takes a few minutes to work")
    }
}
