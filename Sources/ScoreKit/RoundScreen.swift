import RecordKit
import HistoryKit
import SposureKit

/// The Game Over screen: a round's report as text for a person.
///
/// ```
///   G A M E   O V E R
///   ───────────────────────────────────────────
///   Exposure      2m 14s   ★ personal best (was 1m 50s)
///   Points        1435
///   Longest hold  1m 02s   (3 holds)
///   GIFs          23 shown, 19 watched to the end
///   Stalls        2, 1.2s loading (not counted against you)
///   Errors        3 GIFs could not be shown (2 gone, 1 damaged)
///   Sections      spiders       1m 40s   17 GIFs
///                 snakes           34s    6 GIFs
///   Distress      7 → 4
/// ```
public enum RoundScreen {
    /// The screen's lines, without newlines.
    public static func lines(_ scored: ScoredRound, style: TextStyle) -> [String] {
        let round = scored.round
        var lines: [String] = []
        var title = "  " + style.bold("G A M E   O V E R")
        if round.incomplete {
            title += "   " + style.yellow("(incomplete: the stream ended before the round did)")
        }
        lines.append(title)
        lines.append("  " + style.dim(String(repeating: "─", count: 47)))

        func row(_ label: String, _ value: String) {
            let padded = label + String(repeating: " ", count: max(1, 14 - label.count))
            lines.append("  " + style.dim(padded) + value)
        }

        var exposure = style.bold(DurationText.format(milliseconds: round.exposedMs))
        if scored.personalBest == true {
            let was = scored.previousBestMs.map { "(was \(DurationText.format(milliseconds: $0)))" } ?? "(first round)"
            exposure += "   " + style.green("★ personal best") + " " + was
        } else if scored.personalBest == false, let best = scored.previousBestMs {
            exposure += "   " + style.dim("best \(DurationText.format(milliseconds: best))")
        }
        row("Exposure", exposure)
        row("Points", style.bold("\(round.points)"))
        row("Longest hold", DurationText.format(milliseconds: round.longestHoldMs)
            + "   (\(round.holds) hold\(round.holds == 1 ? "" : "s"))")
        row("GIFs", "\(round.gifsShown) shown, \(round.gifsCompleted) watched to the end")
        for (label, value) in ranOutRows(scored) { row(label, value) }
        for (label, value) in gifRows(scored) { row(label, value) }
        if round.stalls == 0 {
            row("Stalls", "none")
        } else {
            row("Stalls", "\(round.stalls), \(DurationText.format(milliseconds: round.stallMs)) loading (not counted against you)")
        }
        row("Errors", errorsText(round))
        if round.badLines > 0 {
            row("Bad lines", style.yellow("\(round.badLines) skipped (not JSON)"))
        }
        let names = round.sections.map { RemoteText.clean($0.name, limit: 24) }
        let nameWidth = names.map(\.count).max() ?? 0
        let times = round.sections.map { DurationText.format(milliseconds: $0.exposedMs) }
        let timeWidth = times.map(\.count).max() ?? 0
        for (index, section) in round.sections.enumerated() {
            let name = names[index] + String(repeating: " ", count: nameWidth - names[index].count)
            let time = String(repeating: " ", count: timeWidth - times[index].count) + times[index]
            let gifs = "\(section.gifsShown) GIF\(section.gifsShown == 1 ? "" : "s")"
            let text = "\(name)   \(time)   \(gifs)"
            if index == 0 { row("Sections", text) } else { row("", text) }
        }
        if let distress = scored.distress {
            let change = distress.after < distress.before ? "  " + style.green("down \(distress.before - distress.after)")
                : distress.after > distress.before ? "  up \(distress.after - distress.before)" : ""
            row("Distress", "\(distress.before) → \(distress.after)\(change)")
        }
        let ladder = ladderRows(scored, style: style)
        for (label, value) in ladder { row(label, value) }
        if !ladder.isEmpty { lines.append("  " + style.dim(ladderReminder)) }
        // What a CC BY licence asks: whose pictures these were (nothing for Giphy or Klipy rounds).
        if let credits = PictureCredit.summary(round.credits) { lines.append("  " + style.dim(credits)) }
        return lines
    }
}
