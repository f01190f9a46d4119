import LadderKit
import FoundationEssentials

/// The dates of rounds: UTC, ISO 8601, whole seconds (`2026-11-21T10:00:00Z`),
/// on the proleptic Gregorian calendar (ISO 8601's), written and read here
/// directly: the ladder reads every round's date, and Foundation's own
/// formatters go Julian before 1582.
public enum Timestamp {
    /// Now, as a round's `at`.
    public static func now() -> String {
        format(Date())
    }

    /// `date` as a round's `at` (the second it falls in).
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    /// `text` as a round's `at`, when it is an ISO 8601 date and time
    /// (`2026-11-21T10:00:00Z`, `2026-11-21T11:00:00+01:00`); nil otherwise.
    public static func normalize(_ text: String) -> String? {
        date(text).map(format)
    }

    /// The date of an `at` (or any ISO 8601 date and time); nil when it is not one.
    public static func date(_ text: String) -> Date? {
        Parser().date(text)
    }

    /// The year, month and day of a day number (days since 1970-01-01;
    /// Howard Hinnant's civil_from_days).
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day number of a year, month and day (Howard Hinnant's days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Timestamp {
    /// ``Timestamp/date(_:)``, kept as a type for readers of many dates.
    public struct Parser {
        /// A parser.
        public init() {}

        /// The date of `YYYY-MM-DDTHH:MM:SS`, then an optional fraction, then
        /// `Z` or an offset (`+01:00`, `-0530`); nil for anything else or an
        /// impossible date (never rolled over into the next month).
        public func date(_ text: String) -> Date? {
            let utf8 = Array(text.utf8)
            guard utf8.count >= 20, let local = Self.fields(utf8) else { return nil }
            var at = 19
            var fraction = 0.0
            if utf8[at] == 0x2E {  // .
                var scale = 0.1
                at += 1
                let start = at
                while at < utf8.count, let digit = Self.digit(utf8[at]) {
                    fraction += Double(digit) * scale
                    scale /= 10
                    at += 1
                }
                guard at > start else { return nil }
                // Never so near the next second that adding it rounds up to it
                // (a Double holds today's dates to about 2.4e-7 s).
                fraction = min(fraction, 0.999_999)
            }
            guard at < utf8.count else { return nil }
            var offset = 0
            switch utf8[at] {
            case 0x5A, 0x7A:  // Z, z
                at += 1
            case 0x2B, 0x2D:  // +, -
                let sign = utf8[at] == 0x2D ? -1 : 1
                at += 1
                guard let hours = Self.number(utf8, at, 2) else { return nil }
                at += 2
                if at < utf8.count && utf8[at] == 0x3A { at += 1 }  // :
                guard let minutes = Self.number(utf8, at, 2), hours < 24, minutes < 60 else { return nil }
                at += 2
                offset = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
            guard at == utf8.count else { return nil }
            return Date(timeIntervalSince1970: Double(local - offset) + fraction)
        }

        /// The seconds since 1970 that `YYYY-MM-DDTHH:MM:SS` names, read as UTC.
        private static func fields(_ b: [UInt8]) -> Int? {
            guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74,
                  b[13] == 0x3A, b[16] == 0x3A,
                  let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
                  let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2),
                  year >= 1, (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            guard (1...monthDays).contains(day) else { return nil }
            return Timestamp.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        }

        private static func number(_ b: [UInt8], _ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard let digit = digit(b[i]) else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        private static func digit(_ byte: UInt8) -> Int? {
            (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
        }
    }
}
