import Foundation

/// The dates of rounds: UTC, ISO 8601, whole seconds (`2026-11-21T10:00:00Z`).
public enum Timestamp {
    /// Now, as a round's `at`.
    public static func now() -> String {
        format(Date())
    }

    /// `date` as a round's `at`.
    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// `text` as a round's `at`, when it is an ISO 8601 date and time
    /// (`2026-11-21T10:00:00Z`, `2026-11-21T11:00:00+01:00`); nil otherwise.
    public static func normalize(_ text: String) -> String? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return format(date) }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return format(date) }
        return nil
    }
}

extension Timestamp {
    /// The date of an `at` (or any ISO 8601 date and time); nil when it is not one.
    public static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
