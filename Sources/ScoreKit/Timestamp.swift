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
        date(text).map(format)
    }
}

extension Timestamp {
    /// The date of an `at` (or any ISO 8601 date and time); nil when it is not one.
    public static func date(_ text: String) -> Date? {
        // The history's own form is read directly (the ladder reads every
        // round's date); the formatters only for any other form.
        Parser.plainUTC(text) ?? Parser().date(text)
    }
}

extension Timestamp {
    /// ``Timestamp/date(_:)`` for many dates: the formatters are made once,
    /// not for each date (making one costs more than reading a history line).
    public struct Parser {
        private let whole = ISO8601DateFormatter()
        private let fractional = ISO8601DateFormatter()

        /// A parser.
        public init() {
            whole.formatOptions = [.withInternetDateTime]
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }

        /// The date of an `at`, as ``Timestamp/date(_:)`` reads it.
        public func date(_ text: String) -> Date? {
            Self.plainUTC(text) ?? whole.date(from: text) ?? fractional.date(from: text)
        }

        /// The date of the form the history writes (`2026-11-21T10:00:00Z`),
        /// read directly; nil for any other form (or an impossible date), which
        /// the formatters read (before 1900 too: Foundation goes Julian before 1582).
        static func plainUTC(_ text: String) -> Date? {
            let utf8 = text.utf8
            guard utf8.count == 20 else { return nil }
            return utf8.withContiguousStorageIfAvailable { b -> Date? in
                guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A else { return nil }
                func number(_ from: Int, _ count: Int) -> Int? {
                    var value = 0
                    for i in from..<(from + count) {
                        guard (0x30...0x39).contains(b[i]) else { return nil }
                        value = value * 10 + Int(b[i] - 0x30)
                    }
                    return value
                }
                guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                      year >= 1900, (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
                let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
                let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
                guard (1...monthDays).contains(day) else { return nil }
                // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
                let y = month <= 2 ? year - 1 : year
                let era = (y >= 0 ? y : y - 399) / 400
                let yearOfEra = y - era * 400
                let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
                let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
                let days = era * 146_097 + dayOfEra - 719_468
                return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
            } ?? nil
        }
    }
}
