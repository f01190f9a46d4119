import FoundationEssentials
import Glibc
import SposureKit

/// The player's screen and keyboard: `/dev/tty` (or `--tty PATH`), never
/// stdin or stdout, which carry the streams.
///
/// ``enter()`` switches to the alternate screen, hides the cursor, turns on
/// mouse and focus reports and (when offered) the kitty keyboard protocol, in
/// raw mode; ``leave()`` undoes every one of them, and is safe to call twice
/// and from any exit path.
public final class Terminal: @unchecked Sendable {
    /// The descriptor written to (and read from, when ``canRead``).
    public let fd: Int32
    /// Whether keys and mouse can be read (a terminal, not a file).
    public let canRead: Bool
    /// Whether it is a terminal at all.
    public let isTTY: Bool
    /// Whether bytes reach the device as written: a file, or a terminal
    /// whose output processing (OPOST) ``enter(mouse:)`` turned off, where
    /// CR and LF are plain cursor moves.
    public var rawOutput: Bool { lock.withLock { raw } }
    private var raw: Bool
    private var saved = termios()
    private var savedValid = false
    private let lock = Lock()
    private var entered = false
    private var done = false
    private var kittyPushed = false

    /// Opens `path` for drawing (and for reading when it is a terminal).
    public init(path: String) throws(TerminalError) {
        var fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw TerminalError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        if fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG {
            ftruncate(fd, 0)  // drawing into a file replaces what was there
        }
        self.fd = fd
        isTTY = isatty(fd) == 1
        canRead = isTTY
        raw = !isTTY
        var ends: [Int32] = [-1, -1]
        if isTTY && pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            wakeRead = ends[0]
            wakeWrite = ends[1]
        }
    }

    /// An error opening or driving the terminal.
    public struct TerminalError: Error, CustomStringConvertible {
        /// What failed.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// The size in cells and, when the terminal says, in pixels.
    public func size() -> (cols: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)? {
        var size = winsize()
        guard isTTY, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row), Int(size.ws_xpixel), Int(size.ws_ypixel))
    }

    /// Raw mode, alternate screen, hidden cursor, mouse and focus reports.
    public func enter(mouse: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard !entered && !done else { return }
        entered = true
        if isTTY, tcgetattr(fd, &saved) == 0 {
            savedValid = true
            var raw = saved
            // Raw input, but keep ISIG so Ctrl-C and Ctrl-Z still signal. Raw
            // output too: with OPOST the kernel looks at every byte written
            // (a third of a millisecond per 48 KB frame on a pty, three times
            // the cost without), and the renderer moves with CR and LF itself.
            raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
            raw.c_cflag |= tcflag_t(CS8)
            raw.c_oflag &= ~tcflag_t(OPOST)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            var now = termios()
            self.raw = tcsetattr(fd, TCSAFLUSH, &raw) == 0 && tcgetattr(fd, &now) == 0
                && now.c_oflag & tcflag_t(OPOST) == 0
        }
        var setup = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
        if isTTY {
            if mouse { setup += "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" }
            setup += "\u{1B}[?1004h"
        }
        write(setup)
    }

    /// Pushes kitty keyboard flags 1+2+8 (disambiguate, report event types, all keys as escapes).
    public func pushKittyKeyboard() {
        lock.lock()
        defer { lock.unlock() }
        guard entered && !kittyPushed else { return }
        kittyPushed = true
        write("\u{1B}[>11u")
    }

    /// Restores everything ``enter(mouse:)`` and ``pushKittyKeyboard()``
    /// changed. `forGood`: the player is done, and no later ``enter(mouse:)``
    /// (a `fg` racing the end of the round) sets the terminal up again.
    public func leave(forGood: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        restore(forGood: forGood) { write($0) }
    }

    /// ``leave(forGood:)`` for a forced exit (a second signal), which must
    /// not wait on the terminal: a stalled one blocks writes, and the player
    /// may be in one, holding the lock (the exit waited for the terminal to
    /// read again). A frame being written is waited for a moment (200 ms);
    /// past it only the modes are given back, so that the shell gets a
    /// cooked terminal (the sequences would land inside the frame half
    /// written). The sequences go as far as the terminal takes them now.
    public func leaveAtOnce() {
        var tries = 0
        while !lock.tryLock() {
            tries += 1
            guard tries < 200 else {
                if savedValid { tcsetattr(fd, TCSANOW, &saved) }
                return
            }
            usleep(1000)
        }
        defer { lock.unlock() }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        restore(forGood: true) { text in
            var text = text
            text.withUTF8 { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// What ``leave(forGood:)`` does, the lock held; `send` writes the sequences.
    private func restore(forGood: Bool, with send: (String) -> Void) {
        if forGood { done = true }
        guard entered else { return }
        entered = false
        var restore = "\u{1B}[?2026l"
        if kittyPushed { restore += "\u{1B}[<u" }
        kittyPushed = false
        if isTTY { restore += "\u{1B}[?1004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" }
        restore += "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        // The modes first: whoever sees the restore sequences finds the terminal cooked.
        if savedValid { tcsetattr(fd, TCSANOW, &saved) }
        if isTTY { raw = false }
        send(restore)
    }

    /// Writes `text` whole.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` (a frame) only while the screen is set up: between a
    /// Ctrl-Z's ``leave()`` and the stop, a frame must not land on the shell's
    /// screen. Returns whether it was written.
    @discardableResult
    public func writeWhileEntered(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lock.withLock {
            guard entered else { return false }
            write(bytes)
            return true
        }
    }

    /// Ctrl-Z typed as a key (the kitty protocol): stops what the terminal
    /// would, the foreground process group (the whole pipeline) when this
    /// terminal is ours, else just this process.
    public func suspendForeground() {
        let group = isTTY ? tcgetpgrp(fd) : -1
        if group > 0 && group == getpgrp() {
            kill(-group, SIGTSTP)
        } else {
            kill(getpid(), SIGTSTP)
        }
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
        close(fd)
    }

    /// Writes `bytes` whole, with as few calls as the kernel allows (one, nearly always).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        _ = writeAll(fd, bytes)
    }

    /// Reads what is there within `timeoutMs` (0: don't wait); empty when nothing came.
    public func read(timeoutMs: Int) -> [UInt8] {
        guard canRead, !hungUp else { return [] }
        var fds = [Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   Glibc.pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, wakeRead >= 0 ? 2 : 1, Int32(clamping: timeoutMs)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        if fds[1].revents != 0 {
            // Woken: empty the pipe; the caller looks at what changed.
            while buffer.withUnsafeMutableBytes({ Glibc.read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
        }
        guard fds[0].revents != 0 else { return [] }
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n > 0 { return Array(buffer[0..<n]) }
        // 0 with nothing to read is normal in raw mode (VMIN 0: the bytes poll
        // saw were flushed or taken); a hang-up says so in poll or with EIO.
        if (n < 0 && errno == EIO) || fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The terminal went away (its window closed without a SIGHUP reaching
            // us, or --tty named a pty whose other side closed): no hold can come.
            hungUp = true
        }
        return []
    }

    /// Whether the terminal hung up: reads end, and the round with them.
    public private(set) var hungUp = false

    /// Makes a ``read(timeoutMs:)`` waiting now (or the next one) return at
    /// once: for a resize or a `fg`, which the player must act on without
    /// waiting for its next frame. Safe from any thread.
    public func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private var wakeRead: Int32 = -1, wakeWrite: Int32 = -1
}
