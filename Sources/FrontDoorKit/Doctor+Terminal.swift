import FoundationEssentials
import Glibc
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
        var checks: [DoctorCheck] = []
        let size = record.int("cols").flatMap { cols in record.int("rows").map { "\(cols)×\($0) cells" } } ?? "size unknown"
        let term = record.string("term").map { "TERM=\($0)" } ?? "no TERM"
        let colorterm = record.string("colorterm").map { ", COLORTERM=\($0)" } ?? ""
        checks.append(DoctorCheck("terminal", .ok, "\(record.string("tty") ?? "/dev/tty"): \(size), \(term)\(colorterm)"))
        var answered = [("kitty keyboard", record.bool("kitty_keyboard") == true),
                        ("kitty graphics", record.bool("kitty_graphics") == true),
                        ("sixel", record.bool("sixel") == true)].map { "\($0.0) \($0.1 ? "yes" : "no")" }
        if let direct = record.bool("direct_color") { answered.append("24-bit colour read back \(direct ? "yes" : "no")") }
        if let outer = record.string("outer_name") { answered.append("outside tmux: \(outer)") }
        if record.bool("answered") != true { answered.append("no answer at all") }
        if let late = record.int("waited_longer_ms"), late > 0, record.bool("answered") == true {
            answered.append("answered late (\(late + 300) ms)")
        }
        checks.append(DoctorCheck("terminal", .ok, "answered the probes: " + answered.joined(separator: ", ")))
        let renderer = record.string("renderer") ?? "?"
        let palette = renderer == "256"
        // Pixels held back (tmux, a kitty too old for placeholders, a silent
        // terminal) are not a check passed: the advice says what would give them.
        let advice = record.string("advice")
        checks.append(DoctorCheck("terminal", advice == nil ? .ok : .info,
                                  "renderer \(renderer), \(record.string("symbols") ?? ""): \(record.string("why") ?? "")",
                                  fix: advice ?? (palette ? "export COLORTERM=truecolor if this terminal has 24-bit colour" : nil)))
        checks.append(DoctorCheck("terminal", .ok, "mouse: \(record.string("mouse") ?? "")"))
        let release = record.bool("key_release") == true
        checks.append(DoctorCheck("terminal", release ? .ok : .info, "keys: \(record.string("keys") ?? "")",
                                  fix: release ? nil : "hold the mouse button for the steadiest hold, or use a terminal with the kitty keyboard protocol (kitty, foot, WezTerm, Ghostty)"))
        return checks
    }
}
