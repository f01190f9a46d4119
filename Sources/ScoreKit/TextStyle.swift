import FoundationEssentials
import Glibc

/// ANSI styling for the text reports, or none.
///
/// Colour only when stdout is a terminal, `NO_COLOR` is unset and `TERM` is
/// not `dumb`: a report saved to a file or piped on holds no escape codes.
public struct TextStyle: Sendable, Equatable {
    /// Whether escape codes are written.
    public var color: Bool

    /// A style that colours when `color` is true.
    public init(color: Bool) {
        self.color = color
    }

    /// No escape codes.
    public static let plain = TextStyle(color: false)

    /// The style for stdout (descriptor `fd`) in `environment`.
    public static func forOutput(fd: Int32 = 1, environment: [String: String] = ProcessInfo.processInfo.environment) -> TextStyle {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return TextStyle(color: isatty(fd) == 1 && !noColor && environment["TERM"] != "dumb")
    }

    /// Bold.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Faint, for labels.
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Green, for good news.
    public func green(_ text: String) -> String { wrap(text, "32") }
    /// Yellow, for what needs a look.
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Cyan, for the sparkline.
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
