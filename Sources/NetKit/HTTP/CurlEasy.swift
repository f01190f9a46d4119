import CCurl
import CurlShim
import FoundationEssentials
import Glibc
import SposureKit

/// A libcurl error, with libcurl's own message.
public struct CurlError: Error, CustomStringConvertible, Sendable {
    /// The libcurl code.
    public var code: CURLcode
    /// An error for `code`.
    public init(code: CURLcode) { self.code = code }
    /// What `curl_easy_strerror` says of it.
    public var description: String { String(cString: curl_easy_strerror(code)) }
}

/// One libcurl easy handle: a transfer's options, reused from transfer to transfer
/// so its connection and TLS session caches stay warm.
public final class CurlEasy {
    /// The handle libcurl knows.
    public let handle: UnsafeMutableRawPointer

    private static let global: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// A new handle; nil only when libcurl cannot allocate one.
    public init?() {
        guard Self.global, let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// Clears every option (connections and caches stay).
    public func reset() { curl_easy_reset(handle) }

    /// Sets a string option; libcurl copies the string.
    public func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(CurlShim_easy_setopt_string(handle, option, value))
    }

    /// Sets a long option.
    public func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(CurlShim_easy_setopt_long(handle, option, value))
    }

    /// Sets a `curl_off_t` option (sizes).
    public func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try check(CurlShim_easy_setopt_off(handle, option, curl_off_t(value)))
    }

    /// Sets a pointer option (user data, error buffer, share handle).
    public func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(CurlShim_easy_setopt_pointer(handle, option, value))
    }

    /// Sets a data callback (write or header function).
    public func set(_ option: CURLoption, callback: CurlShimDataCallback) throws(CurlError) {
        try check(CurlShim_easy_setopt_callback(handle, option, callback))
    }

    /// A long from `curl_easy_getinfo`, 0 when unavailable.
    public func info(_ info: CURLINFO) -> Int {
        var value = 0
        _ = CurlShim_easy_getinfo_long(handle, info, &value)
        return value
    }

    /// A `curl_off_t` from `curl_easy_getinfo`, -1 when unavailable.
    public func info(offset info: CURLINFO) -> Int64 {
        var value: curl_off_t = -1
        guard CurlShim_easy_getinfo_off(handle, info, &value) == CURLE_OK else { return -1 }
        return Int64(value)
    }

    /// The HTTP status of the last response, 0 when there was none (file://, no answer).
    public var responseCode: Int { info(CURLINFO_RESPONSE_CODE) }

    private func check(_ code: CURLcode) throws(CurlError) {
        if code != CURLE_OK { throw CurlError(code: code) }
    }
}

/// The parts of a URL that decide whether and where it may be fetched, as libcurl parses it.
public struct URLParts: Sendable, Equatable {
    /// The scheme, lowercased.
    public var scheme: String
    /// The host, lowercased; empty for file URLs.
    public var host: String
    /// The path, percent-decoded.
    public var path: String

    /// Parses `url`; nil when libcurl cannot make sense of it or it has no scheme.
    public init?(_ url: String) {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart, flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME)?.lowercased() else { return nil }
        self.scheme = scheme
        host = part(CURLUPART_HOST)?.lowercased() ?? ""
        path = part(CURLUPART_PATH, flags: UInt32(CURLU_URLDECODE)) ?? ""
    }
}

/// Hides secrets in a URL before it reaches a message or a record: the value of
/// every `api_key` query parameter becomes `REDACTED`.
public func redactedURL(_ url: String) -> String {
    var result = ""
    var rest = Substring(url)
    while let end = endOfKey(in: rest) {
        result += rest[..<end] + "REDACTED"
        rest = rest[end...]
        rest = rest[(rest.firstIndex(where: { $0 == "&" || $0 == "#" }) ?? rest.endIndex)...]
    }
    return result + rest
}

/// Where the first `api_key=` in `text` ends, in any letter case.
private func endOfKey(in text: Substring) -> Substring.Index? {
    let key = Array("api_key=".utf8)
    func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    let bytes = text.utf8
    var start = bytes.startIndex
    while let first = bytes[start...].firstIndex(where: { lower($0) == key[0] }) {
        var at = first
        var matched = 0
        while matched < key.count, at < bytes.endIndex, lower(bytes[at]) == key[matched] {
            matched += 1
            at = bytes.index(after: at)
        }
        if matched == key.count { return at }
        start = bytes.index(after: first)
    }
    return nil
}
