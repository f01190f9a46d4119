import FoundationEssentials
import Glibc
import SposureKit

/// The notice a person reads before the first ladder round: what Sposure is
/// and is not, and when to stop. Written once here; `gif-play` shows it and
/// waits for a key, and keeps the acceptance in the data folder.
public enum SafetyNotice {
    /// The version of the text; a new version is shown again, once.
    public static let version = 1

    /// The notice, as lines of at most 72 columns.
    public static let lines = [
        "Before you start: Sposure is a self-help practice tool, not a treatment.",
        "",
        "It shows pictures of what you fear, a little at a time. It cannot",
        "promise to cure a fear, and it does not replace a therapist.",
        "",
        "Let go at any moment: the picture goes blank at once.",
        "",
        "Stop, and seek help from a doctor or therapist, if:",
        "  - the distress is overwhelming, or you have a panic attack;",
        "  - you have a heart condition, epilepsy, or are pregnant, unless",
        "    your doctor agrees;",
        "  - you are under 16 and no adult is with you.",
        "",
        "Needles and blood: sit down before you start. If you feel faint, use",
        "applied tension: tense the muscles of your arms, legs and body for",
        "10-15 seconds until your face feels warm, relax for 20-30 seconds,",
        "and repeat five times. Start with the still pictures.",
        "",
        "Press any key to accept and go on, or q to stop.",
    ]

    /// The line under a page that is not the last: a key shows the next.
    public static let more = "more: any key (q to stop)"

    /// The notice fitted to a screen of `columns` × `rows`: its lines wrapped
    /// at spaces to `columns` (a continued line keeps its indent), in pages
    /// of `rows` lines. Every page but the last ends with ``more``, so a key
    /// there turns the page and only a key on the last page, the whole notice
    /// shown, accepts it. One page when the notice fits.
    public static func pages(columns: Int, rows: Int) -> [[String]] {
        let width = max(1, columns)
        let wrapped = lines.flatMap { wrap($0, width: width) }
        if wrapped.count <= max(1, rows) { return [wrapped] }
        let body = max(1, rows - 1)
        return stride(from: 0, to: wrapped.count, by: body).map { start in
            let page = Array(wrapped[start..<min(start + body, wrapped.count)])
            return start + body < wrapped.count ? page + [String(more.prefix(width))] : page
        }
    }

    /// `line` cut at spaces into lines of at most `width` characters; a word
    /// longer than that is cut where it must be.
    static func wrap(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        let indent = String(line.prefix { $0 == " " })
        // A "  - " item continues under its text.
        let hanging = line.dropFirst(indent.count).hasPrefix("- ") ? indent + "  " : indent
        var out: [String] = []
        var current = ""
        for word in line.dropFirst(indent.count).split(separator: " ") {
            let lead = out.isEmpty ? indent : hanging
            let start = current.isEmpty ? lead : current + " "
            if start.count + word.count <= width {
                current = start + word
                continue
            }
            if !current.isEmpty { out.append(current) }
            var rest = Substring(word)
            var prefix = lead.count < width ? (out.isEmpty && current.isEmpty ? lead : hanging) : ""
            while prefix.count + rest.count > width {
                let room = max(1, width - prefix.count)
                out.append(prefix + rest.prefix(room))
                rest = rest.dropFirst(room)
                prefix = hanging.count < width ? hanging : ""
            }
            current = prefix + rest
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// The notice as one text, lines ended by newlines.
    public static var text: String { lines.joined(separator: "\n") + "\n" }

    /// The file that says the notice was accepted: `<data>/notice-accepted`.
    public static func acceptedPath(dataFolder: String = Folders.data()) -> String {
        DataStore(root: dataFolder).noticeAccepted
    }

    /// Whether this version of the notice was accepted before.
    public static func isAccepted(dataFolder: String = Folders.data()) -> Bool {
        guard let bytes = try? readFile(acceptedPath(dataFolder: dataFolder), maxBytes: 256, owner: .program) else { return false }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first == "\(version)"
    }

    /// Keeps the acceptance (`VERSION AT`), making the folder when needed;
    /// throws what kept it from being written.
    public static func accept(dataFolder: String = Folders.data(), at: String) throws(FileError) {
        try Folders.make(dataFolder)
        try writeAtomically(Array("\(version) \(at)\n".utf8), to: acceptedPath(dataFolder: dataFolder), as: .program, mode: 0o600)
    }
}
