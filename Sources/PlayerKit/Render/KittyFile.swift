import Glibc
import SposureKit

/// A temporary file the kitty terminal reads pixels from (`t=t`): in the
/// temporary folder (`TMPDIR`, else `/tmp`), with `tty-graphics-protocol` in
/// its name as the protocol asks, read and deleted by the terminal.
struct KittyFile {
    /// Its path.
    let path: String

    /// The path in base64, the command's payload.
    var base64: String { Base64.encode(Array(path.utf8)) }

    /// A new file holding `bytes`, kept in ``KittyFiles/shared``; nil when it
    /// cannot be written or too many are in flight (then the pixels go over
    /// the pty).
    static func write(_ bytes: [UInt8]) -> KittyFile? { KittyFiles.shared.write(bytes) }

    /// The 1×1 picture of the start-up query.
    static func probe() -> KittyFile? { write([0, 0, 0]) }

    /// Deletes it (the terminal usually has).
    func remove() { KittyFiles.shared.remove(self) }
}

/// The files this process has handed the terminal and not yet seen it
/// delete: at most ``limit`` at a time, and none left when the process ends.
///
/// A terminal that stalls, or that reads the files without deleting them
/// (one whose temporary folder is not ours), would otherwise keep every
/// frame in the folder: 100 files in one run (issue 28 item 11). A file
/// still there when another is due means the terminal has not caught up:
/// past ``limit`` the pixels go over the pty instead. Whatever is left is
/// deleted when the round ends, at the first signal, and before a forced exit.
final class KittyFiles: @unchecked Sendable {
    /// Files in flight at most.
    static let limit = 4
    /// The process's files.
    static let shared = KittyFiles()

    /// Where the files go.
    let folder: String
    private let lock = Lock()
    private var pending: [String] = []

    /// Files in `folder`; by default `TMPDIR` (as the terminal's own
    /// temporary folder, from which it deletes what it reads), else `/tmp`.
    init(folder: String? = nil) {
        let fromEnvironment = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
        var chosen = folder ?? fromEnvironment ?? "/tmp"
        while chosen.count > 1 && chosen.hasSuffix("/") { chosen.removeLast() }
        self.folder = chosen
    }

    /// The files written and not yet seen gone.
    var inFlight: Int {
        lock.withLock {
            forgetGone()
            return pending.count
        }
    }

    /// A new file holding `bytes` (0600, never through a link); nil when it
    /// cannot be written, or when ``limit`` files are still there.
    func write(_ bytes: [UInt8]) -> KittyFile? {
        lock.withLock {
            forgetGone()
            guard pending.count < Self.limit else { return nil }
            var template = Array("\(folder)/tty-graphics-protocol-sposure-XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            let path = String(cString: template)
            guard writeAll(fd, bytes) == nil else {
                unlink(path)
                return nil
            }
            pending.append(path)
            return KittyFile(path: path)
        }
    }

    /// Deletes `file`, if the terminal has not.
    func remove(_ file: KittyFile) {
        lock.withLock {
            unlink(file.path)
            pending.removeAll { $0 == file.path }
        }
    }

    /// Deletes every file still there: the round is over, or the process is going.
    func removeAll() {
        lock.withLock {
            for path in pending { unlink(path) }
            pending.removeAll()
        }
    }

    /// Drops the files the terminal has deleted (it read them).
    private func forgetGone() {
        pending.removeAll { access($0, F_OK) != 0 }
    }
}
