import SposureKit

/// The one line `--share` prints, to paste anywhere:
/// "Held on 2m 14s through 23 GIFs of spiders — personal best".
public enum ShareLine {
    /// The line for `scored`. Section names are remote text: cleaned and cut.
    public static func make(_ scored: ScoredRound) -> String {
        let round = scored.round
        var line = "Held on \(DurationText.format(milliseconds: round.exposedMs))"
        if round.gifsShown > 0 {
            line += " through \(round.gifsShown) GIF\(round.gifsShown == 1 ? "" : "s")"
            let names = round.sections
                .enumerated()
                .sorted { ($0.element.exposedMs, -$0.offset) > ($1.element.exposedMs, -$1.offset) }
                .map { RemoteText.clean($0.element.name, limit: 30) }
                .filter { !$0.isEmpty }
            switch names.count {
            case 0: break
            case 1: line += " of \(names[0])"
            case 2: line += " of \(names[0]) and \(names[1])"
            default: line += " of \(names[0]), \(names[1]) and \(names.count - 2) more"
            }
        }
        var notes: [String] = []
        if round.incomplete { notes.append("round cut short") }
        if let distress = scored.distress { notes.append("distress \(distress.before) → \(distress.after)") }
        if !notes.isEmpty { line += " (\(notes.joined(separator: ", ")))" }
        if scored.personalBest == true { line += " — personal best" }
        return line
    }
}
