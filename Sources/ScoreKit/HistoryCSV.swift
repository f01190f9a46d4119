import FoundationEssentials
import Glibc
import HistoryKit
import SposureKit

/// `score history --export csv`: one row per round, for a therapist (RFC 4180:
/// a header, comma-separated, quoted when needed; lines end with `\n`).
public enum HistoryCSV {
    /// The columns, in order.
    public static let columns = ["date", "time_utc", "ladder", "rung", "rung_suds", "retest", "exposed_s", "longest_hold_s",
                                 "holds", "gifs_shown", "points", "distress_before", "expect_pct", "peak",
                                 "distress_after", "happened", "ended", "incomplete"]

    /// The CSV text of `entries`.
    public static func text(_ entries: [HistoryEntry]) -> String {
        ([header] + entries.map(row)).joined(separator: "\n") + "\n"
    }

    /// The header line, without its newline.
    public static var header: String { columns.joined(separator: ",") }

    /// The row of `entry`, without its newline: written as each round is read.
    public static func row(_ entry: HistoryEntry) -> String {
        let date = entry.date ?? ""
        let time = entry.at.count >= 19 ? String(entry.at.dropFirst(11).prefix(8)) : ""
        func seconds(_ ms: Int) -> String { String(cFormat: "%.1f", Double(ms) / 1000) }
        func optional<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "" }
        let fields: [String] = [
            date, time, text(entry.ladder?.ladder), optional(entry.ladder?.rung), optional(entry.ladder?.rungSuds),
            entry.ladder.map { $0.retest ? "yes" : "no" } ?? "",
            seconds(entry.exposedMs), seconds(entry.longestHoldMs), "\(entry.holds)", "\(entry.gifsShown)", "\(entry.points)",
            optional(entry.sudsBefore), optional(entry.ratings.expectPct),
            optional(entry.ratings.peak), optional(entry.sudsAfter),
            entry.ratings.happened.map { $0 ? "yes" : "no" } ?? "", text(entry.reason), entry.incomplete ? "yes" : "no",
        ]
        return fields.map(quote).joined(separator: ",")
    }

    /// A text field from the history (a ladder's name, how the round ended),
    /// which a hand edit or a hostile stream may have filled: nothing a
    /// terminal acts on, and nothing a spreadsheet runs, since a cell that
    /// starts with = + - or @ is a formula there (it gets a leading ').
    static func text(_ field: String?) -> String {
        let plain = RemoteText.strip(field ?? "")
        guard let first = plain.unicodeScalars.first, "=+-@".unicodeScalars.contains(first) else { return plain }
        return "'" + plain
    }

    /// A field quoted when it holds a comma, a quote or a line break.
    static func quote(_ field: String) -> String {
        // Bytes, not characters: a quote followed by a combining mark is one character.
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingBytes("\"", with: "\"\"") + "\""
    }
}
