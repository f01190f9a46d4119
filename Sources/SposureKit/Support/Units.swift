import FoundationEssentials
import Glibc

/// A number of bytes given as `123`, `512KB`, `20MB`, `1GiB` (KB = 1000, KiB = 1024).
public struct ByteCount: Sendable, Equatable, CustomStringConvertible {
    /// The count in bytes.
    public var bytes: Int

    /// A count of `bytes`.
    public init(_ bytes: Int) { self.bytes = bytes }

    /// Parses `123`, `512KB`, `20MB`, `1GiB`; nil for anything else.
    public init?(argument: String) {
        let text = argument.trimmingWhitespace().lowercased()
        let digits = text.prefix(while: { $0.isNumber || $0 == "." })
        let unit = text.dropFirst(digits.count).trimmingWhitespace()
        let scale: Double
        switch unit {
        case "", "b": scale = 1
        case "k", "kb": scale = 1e3
        case "m", "mb": scale = 1e6
        case "g", "gb": scale = 1e9
        case "kib": scale = 1024
        case "mib": scale = 1024 * 1024
        case "gib": scale = 1024 * 1024 * 1024
        default: return nil
        }
        guard let value = Double(digits), value >= 0, value * scale < 9e15 else { return nil }
        bytes = Int(value * scale)
    }

    public var description: String { Self.format(bytes) }

    /// `bytes` for a person: `512 B`, `1.5 MB`.
    public static func format(_ bytes: Int) -> String {
        let value = Double(bytes)
        switch value {
        case ..<1e3: return "\(bytes) B"
        case ..<1e6: return String(cFormat: "%.1f KB", value / 1e3)
        case ..<1e9: return String(cFormat: "%.1f MB", value / 1e6)
        default: return String(cFormat: "%.2f GB", value / 1e9)
        }
    }
}

/// A span of time given as `250ms`, `10s`, `1.5s`, `2m`, `1h` (a bare number is seconds).
public struct TimeSpan: Sendable, Equatable, CustomStringConvertible {
    /// The span in seconds.
    public var seconds: Double

    /// A span of `seconds`.
    public init(seconds: Double) { self.seconds = seconds }

    /// Parses `250ms`, `10s`, `1.5s`, `2m`, `1h`; nil for anything else.
    public init?(argument: String) {
        let text = argument.trimmingWhitespace().lowercased()
        let digits = text.prefix(while: { $0.isNumber || $0 == "." })
        let unit = text.dropFirst(digits.count).trimmingWhitespace()
        let scale: Double
        switch unit {
        case "ms": scale = 0.001
        case "", "s": scale = 1
        case "m", "min": scale = 60
        case "h": scale = 3600
        default: return nil
        }
        // At most a year: every span is a timeout, a delay or a limit, and a
        // larger one would overflow the clocks' nanoseconds.
        guard let value = Double(digits), value >= 0, value * scale <= Self.longest else { return nil }
        seconds = value * scale
    }

    /// The longest span taken, in seconds: a year.
    public static let longest = 365.0 * 86_400

    /// Whole milliseconds.
    public var milliseconds: Int { Int((seconds * 1000).rounded()) }

    public var description: String {
        if seconds < 1 { return "\(milliseconds)ms" }
        return seconds.rounded() == seconds ? "\(Int(seconds))s" : "\(seconds)s"
    }
}

