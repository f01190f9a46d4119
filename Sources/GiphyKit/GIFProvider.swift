import FoundationEssentials
import Glibc

/// A GIF API `giphy-pages` can speak to. A `page` record names it in its
/// `provider` field; a record without one is Giphy's, so recordings made
/// before there were two replay unchanged.
public enum GIFProvider: String, Sendable, CaseIterable {
    /// Giphy: `api_key=` in the query, pages by offset, a `total_count`.
    case giphy
    /// Klipy: the key is a path segment, pages numbered from 1, `has_next`.
    case klipy

    /// The environment variable that holds the key.
    public var keyVariable: String {
        switch self {
        case .giphy: return "GIPHY_API_KEY"
        case .klipy: return "KLIPY_API_KEY"
        }
    }

    /// The environment variable that points at another API base.
    public var urlVariable: String {
        switch self {
        case .giphy: return "GIPHY_API_URL"
        case .klipy: return "KLIPY_API_URL"
        }
    }

    /// The real API.
    public var defaultBase: String {
        switch self {
        case .giphy: return "https://api.giphy.com"
        case .klipy: return "https://api.klipy.com"
        }
    }

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .giphy: return "Giphy"
        case .klipy: return "Klipy"
        }
    }

    /// Where to get a key.
    public var keyHelp: String {
        switch self {
        case .giphy: return "free at https://developers.giphy.com/dashboard/ (create an app, choose \"API\")"
        case .klipy: return "free at https://klipy.com (sign up as a developer and make an API key; about 100 calls a day until the app is approved)"
        }
    }

    /// The client-side allowance when `--rate` gives none: a Giphy beta key's
    /// 100 calls an hour, a new Klipy key's 100 a day.
    public var defaultRate: (calls: Int, period: Double) {
        switch self {
        case .giphy: return (100, 3600)
        case .klipy: return (100, 86400)
        }
    }

    /// The largest page the API serves.
    public var maxLimit: Int {
        switch self {
        case .giphy: return 100
        case .klipy: return 50
        }
    }

    /// The rendition asked for when `--rendition` names none of this provider's.
    public var defaultRendition: String {
        switch self {
        case .giphy: return "fixed_height"
        case .klipy: return "sm"
        }
    }

    /// The key in `environment`, when set and not blank.
    public func key(in environment: [String: String]) -> String? {
        guard let key = environment[keyVariable]?.trimmingWhitespaceAndNewlines(), !key.isEmpty else { return nil }
        return key
    }

    /// The provider to use when `--provider` names none: Giphy when its key
    /// is set, else Klipy when its key is set; nil when neither is.
    public static func chosen(environment: [String: String] = ProcessInfo.processInfo.environment) -> GIFProvider? {
        if GIFProvider.giphy.key(in: environment) != nil { return .giphy }
        if GIFProvider.klipy.key(in: environment) != nil { return .klipy }
        return nil
    }

    /// What to say when no key at all is set: both keys, where to get each, and the offline demo.
    public static let noKeyMessage = """
        no API key: set GIPHY_API_KEY (a Giphy key, \(GIFProvider.giphy.keyHelp)) \
        or KLIPY_API_KEY (a Klipy key, \(GIFProvider.klipy.keyHelp)), e.g. export KLIPY_API_KEY=your-key. \
        Without a key, `make demo` (pipelines/demo) plays offline.
        """
}
