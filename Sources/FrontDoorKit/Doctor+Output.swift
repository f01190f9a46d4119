import RecordKit
import SposureKit

extension Doctor {
    /// The checks for a person, short enough for a 30-row window (issue 29
    /// #9: 37 lines scrolled out of one): the problems first (✗, each with
    /// its area and fix), then one row of labelled lines an area, no blank
    /// line between (the libraries' ✓ on one line, with their folder), and
    /// the verdict last, where a window that scrolls still shows it. What a
    /// check found can quote the environment, a file or an answer (`TERM`, a
    /// folder's name, the terminal's version): it is made visible-safe here,
    /// where it is printed. `width`: the terminal's, to break long lines at
    /// spaces under their column (nil: not broken).
    ///
    /// ```
    /// 1 problem to fix before a live round:
    ///   ✗ keys: no key is set: a live round needs one
    ///       → set one of the keys (Keys, below: where to get each); sposure demo plays offline without one
    ///
    /// Tools       ✓ giphy-pages 0.7.0  /home/me/.local/bin/giphy-pages
    ///             ✓ …
    /// Libraries   ✓ libcurl, libgif, libjansson, libcrypto (in /usr/lib/x86_64-linux-gnu)
    /// Keys        · GIPHY_API_KEY not set (Giphy)
    ///                 → free at https://developers.giphy.com/dashboard/ …
    ///
    /// 1 problem to fix before a live round (sposure demo plays offline meanwhile)
    /// ```
    public static func lines(_ checks: [DoctorCheck], color: Bool, width: Int? = nil) -> [String] {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let safe = RemoteText.visible
        var out: [(line: String, indent: Int)] = []
        let failed = checks.filter { $0.mark == .fail }
        if !failed.isEmpty {
            out.append((paint("\(failed.count) problem\(failed.count == 1 ? "" : "s") to fix before a live round:", "31"), 2))
            for check in failed {
                out.append(("  " + paint("✗", "31") + " \(check.area): \(safe(check.text))", 6))
                if let fix = check.fix { out.append(("      " + paint("→ " + safe(fix), "2"), 8)) }
            }
            out.append(("", 0))
        }
        var areas: [String] = []
        for check in checks where !areas.contains(check.area) { areas.append(check.area) }
        let labelWidth = 12, pad = String(repeating: " ", count: 12)
        for area in areas {
            let label = area.prefix(1).uppercased() + area.dropFirst()
            var rows: [(text: String, fix: String?)] = []
            let mine = checks.filter { $0.area == area }
            let fine = mine.filter { $0.mark == .ok }
            if fine.count > 1, let folder = commonFolder(fine.map(\.text)) {
                rows.append((paint("✓", "32") + " " + fine.map { safe(libraryName($0.text)) }.joined(separator: ", ") + " (in \(safe(folder)))", nil))
            } else {
                rows += fine.map { (paint("✓", "32") + " " + safe($0.text), $0.fix.flatMap { $0.isEmpty ? nil : $0 }) }
            }
            rows += mine.filter { $0.mark == .info }.map { (paint("·", "2") + " " + safe($0.text), $0.fix) }
            if rows.isEmpty { rows.append((paint("✗", "31") + " (above)", nil)) }
            for (index, row) in rows.enumerated() {
                let head = index == 0 ? paint(label, "1") + String(repeating: " ", count: max(1, labelWidth - label.count)) : pad
                out.append((head + row.text, labelWidth + 2))
                if let fix = row.fix, !fix.isEmpty { out.append((pad + "    " + paint("→ " + safe(fix), "2"), labelWidth + 6)) }
            }
        }
        out.append(("", 0))
        out.append((failed.isEmpty ? paint("A round can be played: sposure play", "32")
                    : paint("\(failed.count) problem\(failed.count == 1 ? "" : "s") to fix before a live round (sposure demo plays offline meanwhile)", "31"), 2))
        guard let width else { return out.map(\.line) }
        return out.flatMap { WordWrap.lines($0.line, width: width, indent: String(repeating: " ", count: $0.indent)) }
    }

    /// The folder every check's file is in, when each text is `NAME  /folder/file`
    /// (the libraries: `libcurl  /usr/lib/x86_64-linux-gnu/libcurl.so.4`); nil otherwise.
    static func commonFolder(_ texts: [String]) -> String? {
        var folders = Set<Substring>()
        for text in texts {
            let parts = text.split(separator: "  ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].hasPrefix("/"), let slash = parts[1].lastIndex(of: "/") else { return nil }
            folders.insert(parts[1][..<slash])
        }
        return folders.count == 1 ? folders.first.map(String.init) : nil
    }

    /// `libcurl` of `libcurl  /usr/lib/…/libcurl.so.4`.
    static func libraryName(_ text: String) -> String {
        String(text.split(separator: "  ", maxSplits: 1, omittingEmptySubsequences: false).first ?? Substring(text))
    }

    /// The checks as one `doctor` record.
    public static func record(_ checks: [DoctorCheck]) -> JSONRecord {
        DoctorRecord(playable: playable(checks), checks: checks.map(\.recordCheck)).record()
    }
}
