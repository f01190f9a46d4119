import FoundationEssentials
import Glibc

/// How far local time is ahead of UTC at a given moment: what a day of
/// practice is counted in (summer time included).
public struct UTCOffset: Sendable {
    /// The offset in seconds at a moment.
    public let seconds: @Sendable (Date) -> Int

    /// An offset given by `seconds`.
    public init(_ seconds: @escaping @Sendable (Date) -> Int) { self.seconds = seconds }

    /// This machine's local time (`TZ`, else `/etc/localtime`), read through
    /// the C library: Foundation's own time zones need its ICU tables, which
    /// the tools do not load. The C library reads `TZ` once a process.
    public static let local = UTCOffset { date in
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// The offsets of `zone`. Named zones need Foundation's ICU tables, which
    /// the tools do not load (there `TimeZone(identifier:)` knows only fixed
    /// offsets): this is for tests and other programs that load them.
    public static func zone(_ zone: TimeZone) -> UTCOffset {
        UTCOffset { zone.secondsFromGMT(for: $0) }
    }
}
