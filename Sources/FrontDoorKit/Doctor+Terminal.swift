import FoundationEssentials
import Glibc
import RecordKit
import SposureKit

extension Doctor {
    /// What the terminal answered to the probes (`gif-play probe`), the
    /// renderer and symbols a round would use and why, and how a hold is read.
    func terminalChecks() -> [DoctorCheck] {
        guard let play = try? tools.path(of: "gif-play") else { return [] }
        let answer = ProgramOutput.run([play, "probe"])
        guard answer.status == 0, let line = answer.stdout.split(separator: "\n").first,
              let record = try? JSONRecord.parse(String(line)) else {
            let why = Self.firstLine(answer.stderr).replacingBytes("gif-play probe: ", with: "")
            return [DoctorCheck("terminal", .fail, "no terminal: \(why.isEmpty ? "gif-play probe failed (exit \(answer.status))" : why)",
                                fix: "run a round in a terminal (it is held on with the mouse or SPACE); sposure demo --headless plays without one")]
        }
        let probe = TerminalRecord(record: record)
        var checks: [DoctorCheck] = []
        let size = probe.cols.flatMap { cols in probe.rows.map { "\(cols)×\($0) cells" } } ?? "size unknown"
        let term = probe.term.map { "TERM=\($0)" } ?? "no TERM"
        let colorterm = probe.colorterm.map { ", COLORTERM=\($0)" } ?? ""
        checks.append(DoctorCheck("terminal", .ok, "\(probe.tty): \(size), \(term)\(colorterm)"))
        var answered = [("kitty keyboard", probe.kittyKeyboard), ("kitty graphics", probe.kittyGraphics),
                        ("sixel", probe.sixel)].map { "\($0.0) \($0.1 ? "yes" : "no")" }
        if let direct = probe.directColor { answered.append("24-bit colour read back \(direct ? "yes" : "no")") }
        if let outer = probe.outerName { answered.append("outside tmux: \(outer)") }
        if !probe.answered { answered.append("no answer at all") }
        if probe.waitedLongerMs > 0, probe.answered {
            answered.append("answered late (\(probe.waitedLongerMs + 300) ms)")
        }
        checks.append(DoctorCheck("terminal", .ok, "answered the probes: " + answered.joined(separator: ", ")))
        let palette = probe.renderer == "256"
        // Pixels held back (tmux, a kitty too old for placeholders, a silent
        // terminal) are not a check passed: the advice says what would give them.
        checks.append(DoctorCheck("terminal", probe.advice == nil ? .ok : .info,
                                  "renderer \(probe.renderer), \(probe.symbols): \(probe.why)",
                                  fix: probe.advice ?? (palette ? "export COLORTERM=truecolor if this terminal has 24-bit colour" : nil)))
        checks.append(DoctorCheck("terminal", .ok, "mouse: \(probe.mouse)"))
        let release = probe.keyRelease
        checks.append(DoctorCheck("terminal", release ? .ok : .info, "keys: \(probe.keys)",
                                  fix: release ? nil : "hold the mouse button for the steadiest hold, or use a terminal with the kitty keyboard protocol (kitty, foot, WezTerm, Ghostty)"))
        return checks
    }
}
