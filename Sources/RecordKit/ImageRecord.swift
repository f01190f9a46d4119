import SposureKit

/// The `image` record of the stream: a GIF file on this machine, ready to
/// play. gif-play reads it; three places write it, each in its own shape:
///
/// ```json
/// {"kind":"image","id":"ff0000","query":"demo","rank":0,"url":"https://media.example/a.gif","path":"/home/me/.cache/sposure/images/38/388e8c….gif","bytes":512345,"sha256":"ee96fd46…","cached":false,"http_status":200,"ms":84}
/// {"kind":"image","provider":"local","id":"a.gif","section":"mine","path":"/home/me/mine/a.gif"}
/// {"kind":"image","id":"a.gif","path":"/home/me/a.gif","section":"files"}
/// ```
///
/// fetch-images turns a `gif` record into one (``init(of:path:fetch:)``):
/// every field of the gif record stays in its place, `kind` changed there,
/// and the image's own fields follow. A ladder rung's folder
/// (``init(folder:file:path:)``, its tag appended after) and gif-play's
/// command line (``init(commandLine:path:)``) make one of a file no stage fetched.
///
/// A record read back keeps every field it has, in order; the image's own are
/// written again in their places, so a record written by any of the three
/// comes back byte for byte.
public struct ImageRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "image"
    /// The `provider` of a GIF of the person's own (a ladder rung's folder).
    public static let localProvider = "local"
    /// The `section` of the files named on gif-play's command line.
    public static let filesSection = "files"

    /// The field names, spelled once.
    public enum Field {
        public static let kind = "kind", provider = "provider", id = "id", section = "section", path = "path"
        public static let bytes = "bytes", sha256 = "sha256", cached = "cached", httpStatus = "http_status", ms = "ms"
        /// The `gif` record's fields gif-play reads (``GIFRecord/Field``'s).
        public static let query = GIFRecord.Field.query, title = GIFRecord.Field.title, creator = GIFRecord.Field.creator
        public static let cacheKey = GIFRecord.Field.cacheKey
        /// With a virtual clock, when the record arrives (ms); and the
        /// ladder's feared outcome, asked about before a round (else the ladder file's).
        public static let atMs = "at_ms", expectation = "expectation"
    }

    /// The absolute path of the GIF file.
    public var path: String
    /// What fetch-images found; nil for a file no stage fetched.
    public var fetch: Fetch?
    /// Every field of the record in its place, `kind` among them: the gif
    /// record's it came from, or the maker's. ``path`` and ``fetch`` are
    /// written over their own places here (a copy: never shared).
    private let fields: JSONRecord

    /// What fetch-images says of the file it stored.
    public struct Fetch: Sendable, Equatable {
        /// Its size.
        public var bytes: Int
        /// Hex SHA-256 of its content.
        public var sha256: String
        /// Whether no transfer was made for this record (a cache hit, or a
        /// fetch of the same key earlier in the run).
        public var cached: Bool
        /// The final HTTP status; nil when no request was made (a cache hit, file://).
        public var httpStatus: Int?
        /// Milliseconds from reading the record to its result, retries included.
        public var ms: Int

        /// A fetch's result.
        public init(bytes: Int, sha256: String, cached: Bool, httpStatus: Int?, ms: Int) {
            self.bytes = bytes
            self.sha256 = sha256
            self.cached = cached
            self.httpStatus = httpStatus
            self.ms = ms
        }

        /// The fetch fields of `record`; nil unless all of them are there, of their types.
        init?(record: JSONRecord) {
            guard let bytes = record.int(Field.bytes), let sha256 = record.string(Field.sha256),
                  let cached = record.bool(Field.cached), let ms = record.int(Field.ms) else { return nil }
            let status = record.int(Field.httpStatus)
            guard status != nil || record.jsonText(Field.httpStatus) == "null" else { return nil }
            self.init(bytes: bytes, sha256: sha256, cached: cached, httpStatus: status, ms: ms)
        }
    }

    /// The image of `source` (a `gif` record) stored at `path`: its fields
    /// in order, `kind` changed in place, then `path` and `fetch`'s fields.
    public init(of source: JSONRecord, path: String, fetch: Fetch?) {
        self.init(fields: source.copy(), path: path, fetch: fetch)
    }

    /// A GIF of a ladder rung's folder, played in place: provider `local`,
    /// its file name as the id, the folder's name as the section, then `path`.
    public init(folder: String, file name: String, path: String) {
        let fields = JSONRecord()
        fields.set(Field.kind, Self.kind)
        fields.set(Field.provider, Self.localProvider)
        fields.set(Field.id, name)
        fields.set(Field.section, folder)
        self.init(fields: fields, path: path, fetch: nil)
    }

    /// A GIF file named on gif-play's command line: its name as the id,
    /// `path`, then the section `files`.
    public init(commandLine name: String, path: String) {
        let fields = JSONRecord()
        fields.set(Field.kind, Self.kind)
        fields.set(Field.id, name)
        fields.set(Field.path, path)
        fields.set(Field.section, Self.filesSection)
        self.init(fields: fields, path: path, fetch: nil)
    }

    private init(fields: JSONRecord, path: String, fetch: Fetch?) {
        self.fields = fields
        self.path = path
        self.fetch = fetch
        write(to: fields)
    }

    /// Reads an `image` record; nil when it is of another kind or has no
    /// string `path`. ``fetch`` is read when every fetch field is there.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let path = record.string(Field.path) else { return nil }
        fields = record.copy()
        self.path = path
        fetch = Fetch(record: record)
    }

    /// The GIF's id, when the record has a string one.
    public var id: String? { fields.string(Field.id) }
    /// Its section, when the record has a string one.
    public var section: String? { fields.string(Field.section) }
    /// Its API, when the record names one (absent: Giphy).
    public var provider: String? { fields.string(Field.provider) }

    /// The record.
    public func record() -> JSONRecord {
        let record = fields.copy()
        write(to: record)
        return record
    }

    /// Sets the image's own fields on `record`: each in its place when the
    /// record has it, else appended in this order.
    private func write(to record: JSONRecord) {
        record.set([(Field.kind, Self.kind), (Field.path, path)])
        if let fetch {
            record.set([(Field.bytes, fetch.bytes), (Field.sha256, fetch.sha256), (Field.cached, fetch.cached),
                        (Field.httpStatus, fetch.httpStatus), (Field.ms, fetch.ms)])
        }
    }

    /// Two image records are equal when they write the same record.
    public static func == (lhs: ImageRecord, rhs: ImageRecord) -> Bool {
        lhs.record().serialized() == rhs.record().serialized()
    }
}
