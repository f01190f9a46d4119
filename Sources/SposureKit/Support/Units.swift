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
        let units: [String: Double] = ["": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
                                       "kib": 1024, "mib": 1024 * 1024, "gib": 1024 * 1024 * 1024]
        guard let value = quantity(argument, units: units), value < 9e15 else { return nil }
        bytes = Int(value)
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
        let units: [String: Double] = ["ms": 0.001, "": 1, "s": 1, "m": 60, "min": 60, "h": 3600]
        // At most a year: every span is a timeout, a delay or a limit, and a
        // larger one would overflow the clocks' nanoseconds.
        guard let value = quantity(argument, units: units), value <= Self.longest else { return nil }
        seconds = value
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

/// `argument` as a number and a unit of `units` (case and white space
/// aside), scaled by the unit; nil when either is missing or wrong, or the
/// number is negative.
private func quantity(_ argument: String, units: [String: Double]) -> Double? {
    let text = argument.trimmingWhitespace().lowercased()
    let digits = text.prefix(while: { $0.isNumber || $0 == "." })
    let unit = String(text.dropFirst(digits.count).trimmingWhitespace())
    guard let scale = units[unit], let value = Double(digits), value >= 0 else { return nil }
    return value * scale
}
