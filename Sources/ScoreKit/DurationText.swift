/// Milliseconds written for a person: `8.6s`, `14s`, `2m 14s`, `1h 02m 05s`.
public enum DurationText {
    /// A duration as the Game Over screen and `--share` write it.
    ///
    /// Under ten seconds it keeps a tenth (`8.6s`, `1s` when whole); above, whole
    /// seconds, rounded down, with minutes and hours in front; the seconds (and
    /// minutes under an hour) are two digits once a larger unit leads.
    public static func format(milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        if ms < 10_000 {
            let tenths = ms / 100
            return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
        }
        let seconds = ms / 1000
        if seconds < 60 { return "\(seconds)s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes)m \(twoDigits(seconds % 60))s" }
        return "\(minutes / 60)h \(twoDigits(minutes % 60))m \(twoDigits(seconds % 60))s"
    }

    /// A short axis label: `30s`, `2m`, `2m 30s`, `1h`.
    public static func axisLabel(milliseconds: Int) -> String {
        let seconds = max(0, milliseconds) / 1000
        if seconds < 60 { return "\(seconds)s" }
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds / 60)m \(twoDigits(seconds % 60))s"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
