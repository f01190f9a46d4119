import FoundationEssentials
import Glibc

/// The one serial path to stderr: `tool: message` lines and a progress line.
///
/// Messages may quote remote text, so control characters are made visible
/// before they reach the terminal. Colour only when stderr is a terminal,
/// `TERM` is not `dumb` and `NO_COLOR` is unset.
public final class Diagnostics: @unchecked Sendable {
    /// The prefix of every message.
    public let tool: String
    /// Silences warnings and progress; errors still print.
    public let quiet: Bool
    /// Traces requests and decisions (``trace(_:)``), `--verbose`.
    public let verbose: Bool
    /// Whether stderr is a terminal (progress is shown only there).
    public let isTerminal: Bool
    private let color: Bool
    private let fd: Int32
    private let lock = Lock()
    private var progressShown = false
    private var terminalWrites = 0
    /// Warnings and errors written while a full-screen program had the
    /// terminal, the last ``coveredLimit`` of them: they went to its
    /// alternate screen, which leaving it wipes (``repeatCovered()``).
    private var covered: [String] = []
    private var coveredDropped = 0
    /// How many covered messages are kept to write again.
    public static let coveredLimit = 20

    /// How many times something was written to stderr while it is a terminal:
    /// a program drawing on that terminal must redraw after it changes.
    public var writesToTerminal: Int { lock.withLock { terminalWrites } }

    /// Diagnostics for `tool`, written to `fd`.
    public init(tool: String, quiet: Bool = false, verbose: Bool = false, fd: Int32 = 2,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.tool = tool
        self.quiet = quiet
        self.verbose = verbose
        self.fd = fd
        isTerminal = isatty(fd) == 1
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        color = isTerminal && !noColor && environment["TERM"] != "dumb"
    }

    /// A problem with one record; the run goes on. Silenced by `--quiet`.
    public func warning(_ message: String) {
        guard !quiet else { return }
        emit(message, style: "33")
    }

    /// A problem that stops the run, or that a script must see. Always printed.
    public func error(_ message: String) {
        emit(message, style: "31")
    }

    /// A step of the run, for `--verbose`: a request, its answer, a retry, a
    /// decision. Written wherever stderr goes; the caller masks secrets.
    public func trace(_ message: @autoclosure () -> String) {
        guard verbose else { return }
        emit("· " + message(), style: "2")
    }

    /// A note for a person at a terminal (never when stderr is a file or
    /// --quiet, nor while a full-screen program has the terminal).
    public func note(_ message: String) {
        guard !quiet && isTerminal && !terminalTaken else { return }
        emit(message, style: nil)
    }

    /// Replaces the progress line; only on a terminal, without `--quiet`, and
    /// not while a full-screen program has the terminal.
    public func progress(_ line: String) {
        guard !quiet && isTerminal && !terminalTaken else { return }
        lock.lock()
        defer { lock.unlock() }
        write("\r\u{1B}[K" + Self.sanitize(line))
        progressShown = true
    }

    /// Removes the progress line, if one is shown (and the terminal is not
    /// taken: the line is then on the screen the program will restore).
    public func clearProgress() {
        lock.lock()
        defer { lock.unlock() }
        if progressShown && !terminalTaken {
            write("\r\u{1B}[K")
        }
        progressShown = false
    }

    /// Whether a full-screen program of our own job has the terminal now, as
    /// gif-play does further down a pipeline while it plays: canonical input
    /// is off while we are in the foreground (a shell running a pipeline
    /// leaves it on; one at its prompt turns it off, but then we are a
    /// background job). Progress and notes would land on its picture
    /// (warnings and errors still go out).
    private var terminalTaken: Bool {
        var mode = termios()
        guard tcgetattr(fd, &mode) == 0, mode.c_lflag & tcflag_t(ICANON) == 0 else { return false }
        let foreground = tcgetpgrp(fd)
        return foreground < 0 || foreground == getpgrp()
    }

    /// `tool: message` as lines of at most `width` columns (nil: one line),
    /// broken at spaces, the lines after the first indented two spaces
    /// (issue 29 #9: a terminal broke them mid-word at its edge).
    public static func lines(tool: String, message: String, width: Int?) -> [String] {
        let text = sanitize(message)
        guard let width else { return [tool + ": " + text] }
        var lines = WordWrap.lines(text, width: width, indent: "  ", used: tool.count + 2)
        lines[0] = tool + ": " + lines[0]
        return lines
    }

    private func emit(_ message: String, style: String?) {
        let prefix = color ? "\u{1B}[1m\(tool):\u{1B}[0m " : "\(tool): "
        // On a terminal, broken at spaces to its width, never mid-word.
        var pieces = Self.lines(tool: tool, message: message, width: isTerminal ? WordWrap.terminalColumns(fd) : nil)
        pieces[0] = String(pieces[0].dropFirst(tool.count + 2))
        if color, let style { pieces = pieces.map { "\u{1B}[\(style)m\($0)\u{1B}[0m" } }
        lock.lock()
        defer { lock.unlock() }
        // CR LF on a terminal: one in raw output mode (gif-play's) has no
        // ONLCR to add the CR, and a cooked one only sees an extra CR.
        let newline = isTerminal ? "\r\n" : "\n"
        let line = prefix + pieces.joined(separator: newline) + newline
        write((progressShown ? "\r\u{1B}[K" : "") + line)
        progressShown = false
        if isTerminal && terminalTaken {
            covered.append(line)
            if covered.count > Self.coveredLimit {
                covered.removeFirst()
                coveredDropped += 1
            }
        }
    }

    /// Writes again the warnings and errors written while a full-screen
    /// program had the terminal, once it has given it back: they were on
    /// its alternate screen, gone with it. gif-play calls it when it leaves
    /// the screen, for its own messages (those of other stages in the
    /// pipeline that became records reach `score` anyway).
    public func repeatCovered() {
        lock.lock()
        defer { lock.unlock() }
        guard !covered.isEmpty, !terminalTaken else { return }
        let prefix = color ? "\u{1B}[1m\(tool):\u{1B}[0m " : "\(tool): "
        if coveredDropped > 0 {
            write(prefix + "\(coveredDropped + covered.count) messages while the terminal was in use; the last \(covered.count):\r\n")
        }
        for line in covered { write(line) }
        covered = []
        coveredDropped = 0
    }

    private func write(_ text: String) {
        if isTerminal { terminalWrites += 1 }
        _ = writeAll(fd, text)
    }

    /// `text` with control characters shown as `\u{…}` escapes (``RemoteText/visible(_:)``).
    public static func sanitize(_ text: String) -> String { RemoteText.visible(text) }
}
