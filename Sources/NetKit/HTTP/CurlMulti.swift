import CCurl
import CurlShim
import SposureKit

/// A libcurl multi handle: many transfers driven from one thread.
///
/// Connections are shared by every easy handle added to it (and reused), and
/// HTTP/2 streams are multiplexed onto one connection when the server offers it.
/// A share handle keeps TLS sessions and DNS answers across easy handles.
public final class CurlMulti: @unchecked Sendable {
    /// The handle libcurl knows.
    public let handle: UnsafeMutableRawPointer
    /// The share handle to set on every easy handle (`CURLOPT_SHARE`).
    public let share: UnsafeMutableRawPointer?

    /// A multi handle with at most `maxConnections` open, `maxPerHost` to one host.
    public init?(maxConnections: Int, maxPerHost: Int) {
        _ = CurlEasy()  // curl_global_init, once
        guard let handle = curl_multi_init() else { return nil }
        self.handle = handle
        _ = CurlShim_multi_setopt_long(handle, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        _ = CurlShim_multi_setopt_long(handle, CURLMOPT_MAX_TOTAL_CONNECTIONS, maxConnections)
        _ = CurlShim_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, maxPerHost)
        _ = CurlShim_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, max(maxConnections * 2, 8))
        share = curl_share_init()
        if let share {
            _ = CurlShim_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
            _ = CurlShim_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        }
    }

    deinit {
        curl_multi_cleanup(handle)
        if let share { curl_share_cleanup(share) }
    }

    /// Starts `easy`'s transfer.
    public func add(_ easy: CurlEasy) -> Bool { curl_multi_add_handle(handle, easy.handle) == CURLM_OK }

    /// Stops `easy`'s transfer (finished or not).
    public func remove(_ easy: CurlEasy) { curl_multi_remove_handle(handle, easy.handle) }

    /// Lets libcurl do what it can without waiting; returns the transfers still running.
    @discardableResult
    public func perform() -> Int {
        var running: Int32 = 0
        while curl_multi_perform(handle, &running) == CURLM_CALL_MULTI_PERFORM {}
        return Int(running)
    }

    /// Waits up to `milliseconds` for activity or ``wakeup()``.
    public func poll(milliseconds: Int) {
        var ready: Int32 = 0
        _ = curl_multi_poll(handle, nil, 0, Int32(clamping: milliseconds), &ready)
    }

    /// Ends a ``poll(milliseconds:)`` early; safe from any thread.
    public func wakeup() { _ = curl_multi_wakeup(handle) }

    /// The transfers that have finished since the last call, with their result.
    public func finished() -> [(easy: UnsafeMutableRawPointer, result: CURLcode)] {
        var done: [(UnsafeMutableRawPointer, CURLcode)] = []
        var left: Int32 = 0
        while let message = curl_multi_info_read(handle, &left) {
            if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                done.append((easy, message.pointee.data.result))
            }
        }
        return done
    }
}
