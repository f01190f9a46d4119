import FoundationEssentials
import Glibc
import LadderKit
import SposureKit

/// The first-run choice of `sposure play`: the built-in ladders, one key
/// each (1–9, then 0), asked on the terminal. `q`, Esc or Ctrl-C choose none.
public struct FearMenu: Sendable {
    /// The ladders offered, in key order.
    public var names: [String]
    /// The key of each, "1"…"9", "0".
    public static let keys: [Character] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]

    /// Where the pictures come from, said under the ladders when it is
    /// worth a word (no key: Wikimedia Commons); nil: nothing said.
    public var source: String?

    /// The menu of the built-in ladders.
    public init(names: [String] = BuiltInLadders.names, source: String? = nil) {
        self.names = Array(names.prefix(Self.keys.count))
        self.source = source
    }

    /// What the menu shows.
    public func text(library: LadderLibrary = LadderLibrary()) -> String {
        var lines = ["No ladder in progress yet. Which fear would you like to face, one small step at a time?", ""]
        for (key, name) in zip(Self.keys, names) {
            let title = (try? library.load(name).ladder.title) ?? name
            lines.append("  \(key)  \(name.padding(12))\(title)")
        }
        lines.append("")
        if let source { lines.append(source) }
        lines.append("A key chooses (q: none). The first rung is mild: cartoons and drawings.")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The ladder the byte `key` chooses; nil for any other byte.
    public func choice(_ key: UInt8) -> String? {
        guard let index = Self.keys.firstIndex(of: Character(Unicode.Scalar(key))), index < names.count else { return nil }
        return names[index]
    }

    /// Shows the menu on the terminal at `path` and waits for a key; the
    /// ladder chosen, nil when none was (q, Esc, Ctrl-C, the end of input).
    public func ask(terminal path: String = "/dev/tty") -> String? {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        let raw = tcgetattr(fd, &saved) == 0
        if raw {
            var settings = saved
            settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            settings.c_cc.6 = 1   // VMIN
            settings.c_cc.5 = 0   // VTIME
            tcsetattr(fd, TCSANOW, &settings)
        }
        defer { if raw { tcsetattr(fd, TCSANOW, &saved) } }
        _ = writeAll(fd, text())
        while true {
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return nil }
            if let name = choice(byte) {
                _ = writeAll(fd, "\(name)\r\n")
                return name
            }
            if byte == UInt8(ascii: "q") || byte == 0x1B || byte == 0x03 || byte == 0x04 { return nil }
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
