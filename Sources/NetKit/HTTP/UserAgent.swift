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

    /// `libcurl/X.Y.Z`: `curl_version_info`'s version alone (its first fields
    /// are in every age); `curl_version()` asks every library libcurl links
    /// for its version, at each start.
    static var libcurl: String {
        guard let info = curl_version_info(CURLVERSION_FIRST), let version = info.pointee.version else { return "libcurl" }
        return "libcurl/" + String(cString: version)
    }
}
