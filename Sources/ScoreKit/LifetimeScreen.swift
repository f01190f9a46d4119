import HistoryKit
import RecordKit
/// `score history` as text: the lifetime statistics, a sparkline of exposure
/// per round, and how distress falls.
///
/// ```
///   Sposure: 12 rounds, 2026-11-01 to 2026-11-21
///   Exposure      34m 12s in all, 2m 51s a round
///   Best          5m 03s, round 11 (2026-11-19)
///   Trend         last 5: 3m 40s a round, up 1m 02s on the 5 before
///   Per round     ▁▂▂▃▃▄▅▅▆▇█▇  oldest → latest
///   Distress      7.2 before, 4.1 after on average (8 rated rounds)
///                 before a round: 7.8 in the first 4 rated, 5.2 in the last 4: falling
///   Pictures      by Jane Doe, Karl Müller, CC BY-SA 4.0; Ana Silva, CC0 (Wikimedia Commons)
/// ```
public enum LifetimeScreen {
    /// The most rounds the sparkline shows (the latest ones).
    public static let sparklineWidth = LifetimeStats.latestCount

    /// The screen's lines, without newlines.
    public static func lines(_ stats: LifetimeStats, style: TextStyle) -> [String] {
        guard stats.rounds > 0 else {
            return ["  No rounds yet: play one (… | gif-play | score) and it is kept here."]
        }
        var lines: [String] = []
        var title = "  " + style.bold("Sposure: \(stats.rounds) round\(stats.rounds == 1 ? "" : "s")")
        let first = stats.firstAt.flatMap(HistoryEntry.date(of:))
        let last = stats.lastAt.flatMap(HistoryEntry.date(of:))
        if let first, let last { title += first == last ? ", \(first)" : ", \(first) to \(last)" }
        lines.append(title)

        func row(_ label: String, _ value: String) {
            let padded = label + String(repeating: " ", count: max(1, 14 - label.count))
            lines.append("  " + style.dim(padded) + value)
        }
        func time(_ ms: Int) -> String { DurationText.format(milliseconds: ms) }

        row("Exposure", "\(time(stats.totalExposedMs)) in all, \(time(stats.averageExposedMs)) a round")
        if let best = stats.best {
            let date = HistoryEntry.date(of: best.at).map { " (\($0))" } ?? ""
            row("Best", style.bold(time(best.exposedMs)) + ", round \(best.number)\(date)")
        }
        if let trend = stats.trend {
            let change: String
            switch trend.direction {
            case "up": change = style.green("up \(time(trend.changeMs))")
            case "down": change = style.yellow("down \(time(-trend.changeMs))")
            default: change = "about the same as"
            }
            let versus = trend.direction == "flat" ? "\(change) the \(trend.window) before" : "\(change) on the \(trend.window) before"
            row("Trend", "last \(trend.window): \(time(trend.recentMeanMs)) a round, \(versus)")
        }
        let shown = stats.exposures.suffix(sparklineWidth)
        let note = shown.count < stats.rounds ? "  the last \(shown.count), oldest → latest" : "  oldest → latest"
        row("Per round", style.cyan(Sparkline.render(Array(shown))) + style.dim(note))
        if let distress = stats.distress {
            row("Distress", "\(tenths(distress.meanBefore)) before, \(tenths(distress.meanAfter)) after on average"
                + " (\(distress.rated) rated round\(distress.rated == 1 ? "" : "s"))")
            if let early = distress.earlyBefore, let recent = distress.recentBefore {
                let verdict = recent < early ? style.green("falling") : recent > early ? style.yellow("rising") : "steady"
                row("", "before a round: \(tenths(early)) in the first \(distress.window) rated, "
                    + "\(tenths(recent)) in the last \(distress.window): \(verdict)")
            }
        }
        // Whose pictures were seen, as their licences ask (the latest first).
        if let credits = PictureCredit.summary(stats.credits.reversed(), lead: "by ") { row("Pictures", credits) }
        return lines
    }

    /// One decimal: `4.5`, `7.0`.
    static func tenths(_ value: Double) -> String {
        let scaled = Int((value * 10).rounded())
        return "\(scaled / 10).\(abs(scaled % 10))"
    }
}
