import CCurl
import SposureKit

/// Why a record could not be fetched: a stable machine `code`, a message for a
/// person, and whether trying again may help.
public struct FetchFailure: Error, Sendable, Equatable {
    /// The stable code written to the error record (`http_404`, `timeout`, …).
    public var code: String
    /// What happened, for a person.
    public var message: String
    /// Whether a retry may succeed (5xx, 429, resets, timeouts, cut bodies).
    public var transient: Bool

    /// A failure with `code` and `message`.
    public init(_ code: String, _ message: String, transient: Bool = false) {
        self.code = code
        self.message = message
        self.transient = transient
    }

    /// An HTTP status that is not a success.
    public static func http(_ status: Int, url: String) -> FetchFailure {
        let transient = status == 429 || status == 408 || (500...599).contains(status)
        let code = status == 429 ? "rate_limited" : "http_\(status)"
        return FetchFailure(code, "HTTP \(status) from \(redactedURL(url))", transient: transient)
    }

    /// The failure for a libcurl result, with libcurl's detailed message.
    public static func curl(_ result: CURLcode, detail: String) -> FetchFailure {
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
        switch result {
        case CURLE_OPERATION_TIMEDOUT: return FetchFailure("timeout", message, transient: true)
        case CURLE_COULDNT_CONNECT: return FetchFailure("connect", message, transient: true)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return FetchFailure("dns", message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return FetchFailure("tls", message)
        case CURLE_TOO_MANY_REDIRECTS: return FetchFailure("too_many_redirects", message)
        case CURLE_UNSUPPORTED_PROTOCOL: return FetchFailure("not_allowed", message)
        case CURLE_URL_MALFORMAT: return FetchFailure("bad_url", message)
        case CURLE_PARTIAL_FILE: return FetchFailure("truncated", message, transient: true)
        case CURLE_FILESIZE_EXCEEDED: return FetchFailure("too_large", message)
        case CURLE_FILE_COULDNT_READ_FILE: return FetchFailure("not_found", message)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return FetchFailure("transfer", message, transient: true)
        default: return FetchFailure("transfer", message)
        }
    }

    /// Stopped by SIGINT or SIGTERM before it finished.
    public static let interrupted = FetchFailure("interrupted", "stopped before the transfer finished")
}
