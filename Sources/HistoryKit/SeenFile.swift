import FoundationEssentials
import Glibc
import SposureKit

/// What one round showed, kept so that later rounds on the same rung (or
/// query) open with GIFs not seen lately: a line of `seen.ndjson` in the data
/// folder, written by `score`, read by `giphy-pages list` and `gif-play`.
///
/// ```json
/// {"kind":"seen","at":"2026-11-21T10:00:00Z","query":"cartoon spider","ladder":"spiders","rung":0,
///  "gifs":[{"provider":"giphy","id":"3o7TKSjRrfIPjeiVyM","hash":"f0e1d2c3b4a59687","hash_dct":"5a3c0f9e1b7d2468"}]}
/// ```
public struct SeenRound: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "seen"

    /// One GIF shown: where from, and its perceptual hash when gif-play made one.
    public struct GIF: Sendable, Equatable, Hashable {
        /// The API (`giphy` when the stream named none).
        public var provider: String
        public var id: String
        /// 16 hex digits (64 bits), when known: the difference hash of its first frame with detail.
        public var hash: String?
        /// The cosine hash of the same frame (`hash_dct`), when known (lines
        /// written before issue 28 have none).
        public var hashDCT: String?

        /// A GIF shown.
        public init(provider: String, id: String, hash: String? = nil, hashDCT: String? = nil) {
            self.provider = provider
            self.id = id
            self.hash = hash
            self.hashDCT = hashDCT
        }

        /// `provider:id`, as ``GIFRatingFile/key(provider:id:)``.
        public var key: String { provider + ":" + id }
    }

    /// When the round started.
    public var at: String
    /// Its search words (a ladder rung's query too), when known.
    public var query: String?
    /// The ladder, when a ladder round.
    public var ladder: String?
    /// The rung, when a ladder round.
    public var rung: Int?
    /// The GIFs, in the order shown.
    public var gifs: [GIF]

    /// A round's GIFs.
    public init(at: String, query: String?, ladder: String? = nil, rung: Int? = nil, gifs: [GIF]) {
        self.at = at
        self.query = query
        self.ladder = ladder
        self.rung = rung
        self.gifs = gifs
    }

    /// Whether this round was on the same rung (ladder and rung equal) or,
    /// off ladders, the same query (case and spaces aside).
    public func isSame(query: String?, ladder: String?, rung: Int?) -> Bool {
        if let ladder, let rung { return self.ladder == ladder && self.rung == rung }
        guard self.ladder == nil, let query, let mine = self.query else { return false }
        return Self.normalized(query) == Self.normalized(mine)
    }

    private static func normalized(_ query: String) -> String {
        query.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The field names of a line, spelled once (and of each of its `gifs`).
    public enum Field {
        public static let kind = "kind", at = "at", query = "query", ladder = "ladder", rung = "rung", gifs = "gifs"
        public static let provider = "provider", id = "id", hash = "hash", hashDCT = "hash_dct"
    }

    /// Reads a line; nil when not a `seen` record with a string `at`.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let at = record.string(Field.at) else { return nil }
        self.at = at
        query = record.string(Field.query)
        ladder = record.string(Field.ladder)
        rung = record.int(Field.rung)
        gifs = (record.objects(Field.gifs) ?? []).compactMap { gif in
            guard let id = gif.string(Field.id), !id.isEmpty else { return nil }
            return GIF(provider: gif.string(Field.provider) ?? "giphy", id: id, hash: gif.string(Field.hash), hashDCT: gif.string(Field.hashDCT))
        }
    }

    /// The line.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set(Field.kind, Self.kind)
        record.set(Field.at, at)
        if let query { record.set(Field.query, query) }
        if let ladder { record.set(Field.ladder, ladder) }
        if let rung { record.set(Field.rung, rung) }
        for gif in gifs {
            let item = record.appendObject(Field.gifs)
            item.set(Field.provider, gif.provider)
            item.set(Field.id, gif.id)
            if let hash = gif.hash { item.set(Field.hash, hash) }
            if let hash = gif.hashDCT { item.set(Field.hashDCT, hash) }
        }
        return record
    }
}

/// The file of ``SeenRound`` lines, `<data>/seen.ndjson`: appended under a
/// lock like the ratings, and bounded: past ``limit`` lines an append keeps
/// the newest ``keep`` (rewritten atomically under the same exclusive lock,
/// so no concurrent round is lost), so it never grows without end. A line
/// past ``maxLineBytes`` is never read whole: it is skipped and said.
public struct SeenFile: Sendable {
    /// The file's path.
    public let path: String
    /// Lines past which an append trims the file.
    public static let limit = 2000
    /// Lines kept when trimmed.
    public static let keep = 1000
    /// The longest line read, as the history's (a round's line is a few kilobytes).
    public static let maxLineBytes = 16 << 20
    /// Where a line skipped as too long is said (a tool's diagnostics); nil: not said.
    public var warn: (@Sendable (String) -> Void)?

    /// The file at `path`; what cannot be read of it is said to `warn`.
    public init(path: String, warn: (@Sendable (String) -> Void)? = nil) {
        self.path = path
        self.warn = warn
    }

    /// `<data>/seen.ndjson`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        DataStore(environment: environment).seen
    }

    /// Appends `round` (a round that showed nothing is not kept), trimming the file past ``limit`` lines.
    public func append(_ round: SeenRound) throws(FileError) {
        guard !round.gifs.isEmpty else { return }
        var line = round.record().serialized()
        line.append(0x0A)
        try RecordLog(path: path, owner: .program).append(lines: line) { fd throws(FileError) in
            guard lseek(fd, 0, SEEK_SET) == 0 else { throw FileError("read", path: path, code: errno) }
            let lines = try readLines(fd)
            guard lines.count > Self.limit else { return }
            var kept: [UInt8] = []
            for line in lines.suffix(Self.keep) {
                kept += line
                kept.append(0x0A)
            }
            try writeAtomically(kept, to: path, as: .program, mode: 0o600)
        }
    }

    /// The rounds in the file, oldest first (a damaged line is passed over; no file: none).
    public func rounds() throws(FileError) -> [SeenRound] {
        try readLines().compactMap { line in
            (try? JSONRecord.parse(line)).flatMap { SeenRound(record: $0) }
        }
    }

    /// The GIFs shown in the last `rounds` rounds on the same rung (or query),
    /// each with how many of those rounds ago it was last shown (0: the latest).
    public func recent(query: String?, ladder: String?, rung: Int?, rounds count: Int) throws(FileError) -> [SeenRound.GIF: Int] {
        var seen: [SeenRound.GIF: Int] = [:]
        let same = try rounds().filter { $0.isSame(query: query, ladder: ladder, rung: rung) }.suffix(count)
        for (age, round) in same.reversed().enumerated() {
            for gif in round.gifs where seen[gif] == nil { seen[gif] = age }
        }
        return seen
    }

    private func readLines() throws(FileError) -> [[UInt8]] {
        let fd: Int32
        switch openRegularFile(path, O_RDONLY | O_NOFOLLOW) {
        case .success(let opened): fd = opened.fd
        case .failure(let failure) where failure.code == ENOENT: return []
        case .failure(let failure): throw failure
        }
        defer { close(fd) }
        while flock(fd, LOCK_SH) != 0 { if errno != EINTR { throw FileError("lock", path: path, code: errno) } }
        return try readLines(fd)
    }

    /// The lines from `fd`'s offset on, those past ``maxLineBytes`` skipped and said.
    private func readLines(_ fd: Int32) throws(FileError) -> [[UInt8]] {
        var reader = LineReader(fd: fd, maxLineBytes: Self.maxLineBytes)
        defer { reader.close() }
        var lines: [[UInt8]] = []
        var skipped: [Int] = []
        do {
            while try reader.readChunk({ line in
                switch line {
                case .text(_, let bytes): lines.append(Array(bytes))
                case .tooLong(let number, _, _): skipped.append(number)
                }
            }) {}
        } catch {
            throw FileError("read", path: path, code: error.code)
        }
        if !skipped.isEmpty {
            let first = skipped.prefix(3).map(String.init).joined(separator: ", ") + (skipped.count > 3 ? ", …" : "")
            warn?("\(path): line\(skipped.count == 1 ? "" : "s") \(first) longer than \(Self.maxLineBytes >> 20) MiB, skipped")
        }
        return lines
    }
}
