import FoundationEssentials
import GiphyKit
import HistoryKit
import RecordKit
import ScoreKit
import SposureKit

extension Standing {
    /// The standing as one `status` record, for a pipe.
    public func record() -> JSONRecord {
        var status = StatusRecord()
        status.ladders = ladders.map { line in
            StatusRecord.Ladder(name: line.name, title: line.title, rung: line.rung, rungs: line.rungs, complete: line.complete,
                                nextRung: line.next.rung, retest: line.next.retest, why: line.next.why, query: line.query,
                                due: line.due.map { StatusRecord.Due(rung: $0.rung, at: Timestamp.format($0.due)) },
                                rounds: line.rounds, lastAt: line.lastAt, sudsBefore: line.lastBefore, peak: line.lastPeak,
                                sudsAfter: line.lastAfter)
        }
        (status.rounds, status.historyUnreadable, status.problems) = (rounds, historyUnreadable, problems)
        (status.roundsToday, status.exposedMsToday, status.streakDays) = (roundsToday, exposedMsToday, streakDays)
        status.provider = provider?.rawValue
        status.keys = keys.map {
            StatusRecord.Key(provider: $0.provider.rawValue, variable: $0.provider.keyVariable, isSet: $0.isSet, rate: $0.rate,
                             callsLeft: $0.callsLeft)
        }
        (status.term, status.colorterm, status.next) = (term, colorterm, nextCommand)
        return status.record()
    }

    /// The standing for a person. Every text that came from a file (the
    /// history's ladder names, its problems) or the environment (`TERM`,
    /// `COLORTERM`) is made visible-safe here, where it is printed.
    public func lines(style: TextStyle, width: Int? = nil) -> [String] {
        let lines = unwrappedLines(style: style)
        guard let width else { return lines }
        // Broken at spaces to the terminal's width, each row's rest under its
        // value (issue 29 #9: the Keys lines broke mid-word at 100 columns).
        return lines.flatMap { line -> [String] in
            let lead = line.hasPrefix("                ") ? 16 : line.hasPrefix(style.yellow("! ")) ? 2 : 14
            return WordWrap.lines(line, width: width, indent: String(repeating: " ", count: lead))
        }
    }

    private func unwrappedLines(style: TextStyle) -> [String] {
        let safe = RemoteText.visible
        var out: [String] = []
        if ladders.isEmpty {
            out.append(style.bold("Ladders") + "       none started yet (sposure ladder lists them)")
        }
        for (index, line) in ladders.enumerated() {
            let label = index == 0 ? style.bold("Ladders") + "       " : "              "
            let place = line.complete ? "complete (\(line.rungs) rungs)" : "rung \(line.rung) of \(line.rungs)"
            out.append(label + style.bold(safe(line.name)) + "  " + place + ", next: " + "\u{201C}\(safe(line.query))\u{201D}"
                       + (line.next.retest ? " (re-test of rung \(line.next.rung))" : ""))
            var details: [String] = []
            if !line.due.isEmpty {
                details.append("re-test due: " + line.due.map { "rung \($0.rung)" }.joined(separator: ", "))
            }
            let before = line.lastBefore.map(String.init) ?? "–", after = line.lastAfter.map(String.init) ?? "–"
            var distress = "last round \(safe(HistoryEntry.date(of: line.lastAt) ?? line.lastAt)): distress \(before) → \(after)"
            if let peak = line.lastPeak { distress += ", peak \(peak)" }
            details.append(distress)
            out.append("                " + style.dim(details.joined(separator: "; ")))
        }
        let today = roundsToday == 0 ? "no round yet" : "\(roundsToday) round\(roundsToday == 1 ? "" : "s"), \(DurationText.format(milliseconds: exposedMsToday)) of exposure"
        out.append(style.bold("Today") + "         " + today)
        out.append(style.bold("Streak") + "        \(streakDays) day\(streakDays == 1 ? "" : "s")" + (rounds > 0 ? ", \(rounds) round\(rounds == 1 ? "" : "s") in all" : ""))
        for (index, key) in keys.enumerated() {
            let label = index == 0 ? style.bold("Keys") + "          " : "              "
            var text = "\(key.provider.keyVariable) "
            if key.isSet {
                text += style.green("set") + (provider == key.provider ? ": rounds use \(key.provider.displayName)" : ": \(key.provider.displayName), with --provider \(key.provider.rawValue)")
                if let left = key.callsLeft {
                    text += "; \(left) call\(left == 1 ? "" : "s") left of \(key.rate)"
                    if left == 0 { text += ", more in \(CallBudget.spoken(key.wait))" }
                }
            } else {
                text += style.dim("not set") + " (\(key.provider.displayName): \(key.provider.keyHelp))"
            }
            out.append(label + text)
        }
        if let provider, !provider.api.needsKey {
            out.append("              " + style.green("no key needed") + ": rounds use \(provider.displayName)'s freely licensed pictures; a key adds GIFs")
        }
        let terminal = term.isEmpty ? "no TERM" : "TERM=\(safe(term))" + (colorterm.isEmpty ? "" : ", COLORTERM=\(safe(colorterm))")
        out.append(style.bold("Terminal") + "      \(terminal) (sposure doctor asks it what it can show)")
        for problem in problems { out.append(style.yellow("! ") + safe(problem)) }
        out.append("")
        out.append(style.bold("Next") + "          " + style.green(safe(nextCommand)) + "   " + style.dim("# " + safe(nextReason)))
        return out
    }
}
