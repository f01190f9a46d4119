import CCurl

/// One transfer's handle, as a ``RequestClient`` sees it: reused from attempt
/// to attempt with its connections shared across the engine. What libcurl
/// keeps behind it stays inside NetKit and the image transfer of FetchKit
/// (`package` access: this package's modules, no one else).
public final class RequestHandle {
    /// The easy handle.
    package let easy: CurlEasy
    /// The engine's share of connections, DNS and TLS sessions.
    package let share: UnsafeMutableRawPointer?

    init(easy: CurlEasy, share: UnsafeMutableRawPointer?) {
        self.easy = easy
        self.share = share
    }

    /// The HTTP status of the last response (0: none came).
    public var responseCode: Int { easy.responseCode }
}

/// How a transfer ended, as libcurl said.
public struct TransferResult: Sendable {
    /// libcurl's code.
    package let code: CURLcode

    init(_ code: CURLcode) { self.code = code }

    /// Whether the transfer went through (an HTTP error status still did).
    public var succeeded: Bool { code == CURLE_OK }
}
