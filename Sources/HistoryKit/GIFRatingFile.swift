import RecordKit
import LadderKit
import FoundationEssentials
import Glibc
import SposureKit

/// The ratings of GIFs, kept in the data folder (`ratings.ndjson`), one line a
/// rating; the latest line of a provider and id wins.
///
/// Appended under an exclusive `flock` with one write(2), as the history is,
/// so two rounds scored at once never interleave; read under a shared one.
public struct GIFRatingFile: Sendable {
    /// The file's path.
    public let path: String

    /// The file at `path`.
    public init(path: String) { self.path = path }

    /// `<data>/ratings.ndjson`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        DataStore(environment: environment).ratings
    }

    /// The ratings kept beside `history` (its folder's `ratings.ndjson`), as `score` keeps them.
    public static func beside(_ history: HistoryFile) -> GIFRatingFile {
        GIFRatingFile(path: DataStore(holding: history.path).ratings)
    }

    /// Why the file could not be read or written.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The message, with the path and the system's reason.
        public var description: String
    }

    /// Appends `ratings`, in one write, creating the file (0600) and its
    /// folder, as the history is appended to (``RecordLog``: a torn last line
    /// left by a crash is removed first, the write is synced).
    public func append(_ ratings: [GIFRating]) throws(Failure) {
        try append(records: ratings.map { $0.record() })
    }

    /// Appends off-topic marks (the `x` key), beside the ratings, as ``append(_:)`` does.
    public func append(marks: [OffTopicMark]) throws(Failure) {
        try append(records: marks.map { $0.record() })
    }

    private func append(records: [JSONRecord]) throws(Failure) {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        for record in records {
            bytes += record.serialized()
            bytes.append(0x0A)
        }
        do {
            try RecordLog(path: path, owner: .program).append(lines: bytes)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The latest rating of each GIF, keyed by ``key(provider:id:)``; a missing file is empty.
    /// `ladder`: only ratings given on that ladder.
    public func latest(ladder: String? = nil) throws(Failure) -> [String: GIFRating] {
        var latest: [String: GIFRating] = [:]
        for record in try records() {
            guard let rating = GIFRating(record: record) else { continue }
            if let ladder, rating.ladder != ladder { continue }
            latest[Self.key(provider: rating.source, id: rating.id)] = rating
        }
        return latest
    }

    /// The off-topic marks, oldest first; a missing file has none.
    /// `ladder`: only marks given on that ladder.
    public func marks(ladder: String? = nil) throws(Failure) -> [OffTopicMark] {
        try records().compactMap { record in
            guard let mark = OffTopicMark(record: record), ladder == nil || mark.ladder == ladder else { return nil }
            return mark
        }
    }

    /// Every line that is a JSON object, in order (a damaged line is passed over).
    private func records() throws(Failure) -> [JSONRecord] {
        // Only a regular file: a FIFO would hang the lister, a device never end.
        let fd: Int32
        switch openRegularFile(path, O_RDONLY) {
        case .success(let opened): fd = opened.fd
        case .failure(let failure) where failure.code == ENOENT: return []
        case .failure(let failure): throw Failure(description: failure.description)
        }
        defer { close(fd) }
        while flock(fd, LOCK_SH) != 0 { if errno != EINTR { throw failure("lock") } }
        guard let data = readAll(fd) else { throw failure("read") }
        return data.split(separator: 0x0A).compactMap { try? JSONRecord.parse(String(decoding: $0, as: UTF8.self)) }
    }

    /// The key of a GIF: `provider:id`.
    public static func key(provider: String, id: String) -> String { provider + ":" + id }

    private func failure(_ doing: String) -> Failure {
        Failure(description: "cannot \(doing) \(path): \(String(cString: strerror(errno)))")
    }
}
