import LadderKit
import SposureKit

/// The ladders there are, as `score ladder` without a name shows them: the
/// built-in ones and the person's own, each with where its file is.
public struct LadderList: Sendable {
    /// The ladders' folder.
    public var folder: String
    /// Each ladder's name and its own copy's path (nil: the built-in).
    public var ladders: [(name: String, copy: String?)]

    /// The ladders of `library`.
    public init(library: LadderLibrary) {
        folder = library.folder
        ladders = library.names().map { ($0, library.hasOwnCopy($0) ? library.path(of: $0) : nil) }
    }

    /// The `ladders` record: the folder, and each ladder's copy or "built-in"
    /// under a key of its own (a ladder may be named "kind").
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", "ladders")
        record.set("folder", folder)
        let object = record.setObject("ladders")
        for ladder in ladders { object.set(ladder.name, ladder.copy ?? "built-in") }
        return record
    }

    /// One line a ladder, a copy's path beside its name.
    public func lines() -> [String] {
        ladders.map { ladder in ladder.name + (ladder.copy.map { "  (your copy: \($0))" } ?? "") }
    }
}
