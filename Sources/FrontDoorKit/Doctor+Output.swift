import SposureKit

extension Doctor {
    /// The checks for a person: a heading per area, one line a check, the fix
    /// under a ✗. What a check found can quote the environment, a file or an
    /// answer (`TERM`, a folder's name, the terminal's version): it is made
    /// visible-safe here, where it is printed.
    public static func lines(_ checks: [DoctorCheck], color: Bool) -> [String] {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var out: [String] = []
        var area = ""
        for check in checks {
            if check.area != area {
                area = check.area
                if !out.isEmpty { out.append("") }
                out.append(paint(area.prefix(1).uppercased() + area.dropFirst(), "1"))
            }
            let mark = check.mark == .ok ? paint("✓", "32") : check.mark == .fail ? paint("✗", "31") : paint("·", "2")
            out.append("  \(mark) \(RemoteText.visible(check.text))")
            if let fix = check.fix, check.mark != .ok || !fix.isEmpty {
                out.append("      " + paint("→ " + RemoteText.visible(fix), "2"))
            }
        }
        out.append("")
        let failed = checks.filter { $0.mark == .fail }.count
        out.append(failed == 0 ? paint("A round can be played: sposure play", "32")
                               : paint("\(failed) problem\(failed == 1 ? "" : "s") to fix before a live round (sposure demo plays offline meanwhile)", "31"))
        return out
    }

    /// The checks as one `doctor` record.
    public static func record(_ checks: [DoctorCheck]) -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "doctor")
        record.set("playable", playable(checks))
        for check in checks { check.write(to: record.appendObject("checks")) }
        return record
    }
}
