import LadderKit
import FoundationEssentials
import Glibc
import SposureKit

/// The history file: one `round` record a line, appended whole under a lock.
///
/// Writers take an exclusive `flock`, write the full line with one write(2) and
/// fsync it before letting go, so two rounds finishing at once never interleave
/// and a line is on disk before the next writer looks at the file. Readers take
/// a shared lock, so they never see a line being written. What a crash can
/// still leave (power lost in the middle of a write) is a torn last line, with
/// no newline: readers ignore and report it, and the next writer removes it
/// before appending. A last line without a newline that is a whole record (a
/// hand edit) is kept: the writer ends it with a newline first.
public struct HistoryFile: Sendable {
    /// The file, as the log of records its rounds are appended to.
    public let log: RecordLog
    /// The file's path.
    public var path: String { log.path }
    /// Whose file it is: the program's own (a link there is refused) or one
    /// a person named with `--history-file` (a link is followed).
    public var owner: FileOwner { log.owner }

    /// The history at `path`, whose file `owner`'s.
    public init(path: String, owner: FileOwner) { log = RecordLog(path: path, owner: owner) }

    /// The history a person named (`--history-file`), else the default one,
    /// which is the program's own file.
    public static func named(_ path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> HistoryFile {
        path.map { HistoryFile(path: $0, owner: .person) } ?? HistoryFile(path: defaultPath(environment: environment), owner: .program)
    }

    /// `$SPOSURE_DATA/history.ndjson`, else `$XDG_DATA_HOME/sposure/history.ndjson`
    /// (when absolute), else `~/.local/share/sposure/history.ndjson`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        DataStore(environment: environment).history
    }

    /// What a read found.
    public struct Contents: Sendable {
        /// The rounds, in file order.
        public var entries: [HistoryEntry] = []
        /// Lines skipped, each as `path:LINE: why`: the first
        /// ``shownProblems``, then one line saying how many more (a file of
        /// garbage is a few lines on screen, not one a line).
        public var problems: [String] = []
        /// How many lines were skipped or said, in all.
        public var problemCount = 0
        /// Whether the last line was torn (no newline, not a record) and ignored.
        public var tornTail = false

        /// The most problems said one by one.
        public static let shownProblems = 5

        /// Notes `problem` (said when among the first few).
        mutating func note(_ problem: @autoclosure () -> String, path: String) {
            problemCount += 1
            if problemCount <= Self.shownProblems {
                problems.append(problem())
            } else {
                let more = problemCount - Self.shownProblems
                let summary = "\(path): and \(more) more such line\(more == 1 ? "" : "s")"
                if problemCount == Self.shownProblems + 1 { problems.append(summary) } else { problems[problems.count - 1] = summary }
            }
        }
    }

    /// Reads every round. A missing file is an empty history.
    public func read() throws(FileError) -> Contents {
        var entries: [HistoryEntry] = []
        var contents = try scan { _, entry in entries.append(entry) }
        contents.entries = entries
        return contents
    }

    /// Reads the file `passes` times under one shared lock, a chunk at a time,
    /// giving each round to `body` with the pass (from 0) and never holding
    /// more than a line of the file: memory stays flat however long the
    /// history. The rounds are not kept (`entries` is empty); the problems are
    /// the first pass's. A missing file is an empty history.
    @discardableResult
    public func scan(passes: Int = 1, _ body: (_ pass: Int, _ entry: HistoryEntry) -> Void) throws(FileError) -> Contents {
        try scan(passes: passes, while: { pass, entry in
            body(pass, entry)
            return true
        })
    }

    /// Reads as ``scan(passes:_:)`` does while `body` returns true; false ends
    /// the read there, every pass (a closed stdout, a signal). The problems are
    /// the first pass's up to where it ended.
    @discardableResult
    public func scan(passes: Int = 1, while body: (_ pass: Int, _ entry: HistoryEntry) -> Bool) throws(FileError) -> Contents {
        // Only a regular file: a FIFO would hang here, and a device (/dev/zero) never ends.
        let fd: Int32
        switch openRegularFile(path, O_RDONLY) {
        case .success(let opened): fd = opened.fd
        case .failure(let failure) where failure.code == ENOENT: return Contents()
        case .failure(let failure): throw FileError(failure.reason == nil ? "open" : "read", path: path, code: failure.code, reason: failure.reason, subject: "history")
        }
        defer { close(fd) }
        try lock(fd, LOCK_SH)
        var contents = Contents()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        for pass in 0..<max(1, passes) {
            guard lseek(fd, 0, SEEK_SET) == 0 else { throw FileError("read", path: path, code: errno, subject: "history") }
            var lines = LineSplitter(path: path)
            var problems = Contents()
            var pending: [UInt8] = []
            var oversized = false
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError("read", path: path, code: errno, subject: "history")
                }
                if n == 0 { break }
                var start = 0
                while let newline = chunk[start..<n].firstIndex(of: 0x0A) {
                    let entry: HistoryEntry?
                    if oversized {
                        lines.skipLong(into: &problems)
                        oversized = false
                        pending.removeAll()
                        entry = nil
                    } else if pending.isEmpty {
                        entry = lines.take(chunk[start..<newline], terminated: true, into: &problems)
                    } else {
                        pending.append(contentsOf: chunk[start..<newline])
                        entry = lines.take(pending[...], terminated: true, into: &problems)
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = newline + 1
                    if let entry, !body(pass, entry) {
                        return pass == 0 ? problems : contents
                    }
                }
                if !oversized { pending.append(contentsOf: chunk[start..<n]) }
                // A line no round needs (a round is well under a MiB): the
                // rest of it is not kept, so memory stays bounded.
                if pending.count > Self.maxLineBytes {
                    oversized = true
                    pending.removeAll()
                }
            }
            if oversized { lines.skipLong(into: &problems) }
            if !oversized, !pending.isEmpty, let entry = lines.take(pending[...], terminated: false, into: &problems), !body(pass, entry) {
                return pass == 0 ? problems : contents
            }
            if pass == 0 { contents = problems }
        }
        return contents
    }

    /// What an append did besides appending.
    public struct AppendOutcome: Sendable, Equatable {
        /// Bytes of a torn last line removed first (0: none).
        public var removedTornBytes = 0
    }

    /// Appends `entry` as one line, creating the file (0600) and its folders (0700) as needed.
    @discardableResult
    public func append(_ entry: HistoryEntry) throws(FileError) -> AppendOutcome {
        var line = entry.record().serialized()
        line.append(0x0A)
        return try append(line: line)
    }

    /// Appends `line` (a whole record and its newline) under the lock, written with one write(2) and synced.
    @discardableResult
    public func append(line: [UInt8]) throws(FileError) -> AppendOutcome {
        do {
            return AppendOutcome(removedTornBytes: try log.append(lines: line))
        } catch {
            throw error.about("history")
        }
    }

    // MARK: Reading

    /// The longest history line read; a longer one is skipped, said with its number.
    static let maxLineBytes = 16 << 20

    /// Turns the file's lines, one at a time, into rounds and problems.
    private struct LineSplitter {
        let path: String
        var number = 0

        /// A line over ``HistoryFile/maxLineBytes``: counted and said, not read.
        mutating func skipLong(into contents: inout Contents) {
            number += 1
            contents.note("\(path):\(number): longer than \(HistoryFile.maxLineBytes >> 20) MiB, skipped", path: path)
        }

        /// The round on `line` (without its newline; `terminated`: it had one), else nil and maybe a problem.
        mutating func take(_ line: ArraySlice<UInt8>, terminated: Bool, into contents: inout Contents) -> HistoryEntry? {
            number += 1
            var slice = line
            if number == 1 && slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }  // a byte-order mark
            if slice.last == 0x0D { slice = slice.dropLast() }
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
            let record = try? slice.withUnsafeBytes { try JSONRecord.parse($0) }
            if let record, var entry = HistoryEntry(record: record) {
                // A round without a time still counts; a hand-edited one is said.
                if !entry.at.isEmpty && Timestamp.date(entry.at) == nil {
                    contents.note("\(path):\(number): at \(RemoteText.visible(String(entry.at.prefix(40)))) is no time like 2026-11-21T10:00:00Z; the round counts, undated\(entry.ladder == nil ? "" : ", but not on its ladder (the rules need its date)")", path: path)
                    entry.at = ""
                }
                return entry
            }
            if !terminated && record == nil {
                contents.tornTail = true
                contents.note("\(path):\(number): a torn last line (an interrupted write), ignored", path: path)
            } else {
                let why = record.map { HistoryEntry.problem($0) ?? "not a round record" } ?? "not a JSON object"
                contents.note("\(path):\(number): \(why), skipped", path: path)
            }
            return nil
        }
    }

    private func lock(_ fd: Int32, _ operation: Int32) throws(FileError) {
        do { try RecordLog.lock(fd, operation, path: path) } catch { throw FileError(error.doing, path: path, code: error.code, subject: "history") }
    }
}
