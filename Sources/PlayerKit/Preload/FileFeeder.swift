import FoundationEssentials
import Glibc
import RecordKit
import SposureKit

/// GIF files named on the command line, as image records on a pipe of our
/// own that the stage reads as it would read stdin, written by a thread
/// (started once the signals are blocked: ``Stage/start(trapSignals:reading:)``).
///
/// ```
/// files ─▶ feeder thread ─▶ [pipe] ─▶ the stage's reader
/// ```
public final class FileFeeder: @unchecked Sendable {
    /// The end the stage reads.
    public let inputFD: Int32
    private let writeFD: Int32
    private let lines: [String]

    /// A feeder of `files` (relative paths taken from the current folder);
    /// nil when no pipe can be made.
    public init?(files: [String]) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        inputFD = fds[0]
        writeFD = fds[1]
        lines = files.map { file -> String in
            ImageRecord(commandLine: Paths.lastComponent(file), path: Paths.absolute(file)).record().text + "\n"
        }
    }

    /// Starts the thread that writes the records and closes the pipe.
    public func start() {
        let (lines, writeFD) = (lines, writeFD)
        Threads.start("files") {
            // A failed write (the player stopped reading) ends the feed.
            for line in lines where writeAll(writeFD, line) != nil { break }
            close(writeFD)
        }
    }
}
