import CCurl
import SposureKit

/// The `User-Agent` every request of this process sends: the program, its
/// version and where to reach its makers, as Wikimedia's User-Agent policy
/// asks of every client (it answers 403 to a request without one) and as
/// any API is owed. A tool names itself once at start-up (``identify(program:version:contact:)``).
///
/// ```
/// sposure-giphy-pages/0.7.0 (+https://…; a free exposure-practice game) libcurl/8.5.0
/// ```
public enum UserAgent {
    private static let lock = Lock()
    nonisolated(unsafe) private static var value = "sposure/1"

    /// The header's value, as set last.
    public static var current: String { lock.withLock { value } }

    /// Names the running tool: `program/version (+contact)`, then libcurl's own version.
    public static func identify(program: String, version: String, contact: String) {
        let text = "\(program)/\(version) (+\(contact)) \(libcurl)"
        lock.withLock { value = text }
    }

    /// `libcurl/X.Y.Z`, the first word of `curl_version()`.
    static var libcurl: String {
        guard let text = curl_version() else { return "libcurl" }
        return String(String(cString: text).prefix { $0 != " " })
    }
}
