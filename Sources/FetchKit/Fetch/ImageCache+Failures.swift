import FoundationEssentials
import Glibc
import SposureKit
import NetKit

/// The failures the cache remembers (issue 29 #10): a URL that failed for
/// good (an HTTP 4xx but 408 and 429, a body that is not a GIF) is not
/// fetched again for a day. Its status is kept, never its body.
///
/// ```
/// <root>/failed/3f/3fa2….json   {"code":"http_404","error":"HTTP 404 from …","at":1764350000}
/// ```
///
/// An entry is named like the image it stands for (the SHA-256 of the
/// record's `cache_key`, else its URL); one past its day is removed when
/// looked up. `fetch-images --retry-failed` fetches such URLs again.
extension ImageCache {
    /// A failure the cache remembers.
    public struct RememberedFailure: Sendable, Equatable {
        /// The error code it failed with (`http_404`, `not_gif`, …).
        public var code: String
        /// The message it failed with.
        public var message: String
        /// When it failed, in seconds since 1970.
        public var at: Int
    }

    /// How long a failure is remembered, in seconds: a day.
    public static let failureMemorySeconds = 86_400

    /// Whether `failure` is one the cache remembers: the server's own answer
    /// that trying again will not change (a 4xx but 408 and 429, not a GIF).
    public static func remembers(_ failure: FetchFailure) -> Bool {
        if failure.transient { return false }
        if failure.code == "not_gif" { return true }
        guard failure.code.hasPrefix("http_"), let status = Int(failure.code.dropFirst(5)) else { return false }
        return (400...499).contains(status)
    }

    /// The field names of a remembered failure's file (the cache's, not the stream's).
    enum FailureField {
        static let code = "code", error = "error", at = "at"
    }

    /// Where `key`'s remembered failure lives (whether or not it exists).
    public func failurePath(forKey key: String) -> String {
        let name = Self.name(forKey: key)
        return "\(root)/failed/\(name.prefix(2))/\(name).json"
    }

    /// The failure remembered for `key` within the last day, at `now`
    /// (seconds since 1970); nil when none. A stale or damaged entry is removed.
    public func recallFailure(forKey key: String, now: Int) -> RememberedFailure? {
        let path = failurePath(forKey: key)
        guard let bytes = Self.readSmallFile(path) else { return nil }
        guard let record = try? JSONRecord.parse(bytes), let code = record.string(FailureField.code),
              let message = record.string(FailureField.error), let at = record.int(FailureField.at),
              at <= now + 60, now - at < Self.failureMemorySeconds else {
            unlink(path)
            return nil
        }
        return RememberedFailure(code: code, message: message, at: at)
    }

    /// Remembers that `key` failed with `failure` at `now`; says nothing
    /// when it cannot (a read-only cache forgets).
    public func rememberFailure(_ failure: FetchFailure, forKey key: String, now: Int) {
        guard unwritable == nil else { return }
        let path = failurePath(forKey: key)
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let failed = String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)])
        for made in [failed, folder] where mkdir(made, 0o755) != 0 && errno != EEXIST { return }
        let record = JSONRecord()
        record.set([(FailureField.code, failure.code), (FailureField.error, failure.message), (FailureField.at, now)])
        try? writeAtomically(record.serialized() + [0x0A], to: path, as: .program, durable: false)
    }

    /// Forgets `key`'s failure (it was fetched after all).
    public func forgetFailure(forKey key: String) {
        unlink(failurePath(forKey: key))
    }

    /// The bytes of the regular file at `path`, at most 64 KiB; nil when there is none.
    private static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= 65_536 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { return nil }
        return bytes
    }

    /// `seconds` since 1970 as `2026-11-28T18:00:00Z`.
    public static func utcText(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(cFormat: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
