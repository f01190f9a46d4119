import LadderKit
import SposureKit

/// The ladders there are, as `score ladder` without a name shows them: the
/// built-in ones and the person's own, each with where its file is.
///
/// ```json
/// {"kind":"ladders","folder":"/home/me/.config/sposure/ladders","ladders":{"spiders":"built-in","mine":"/home/me/.config/sposure/ladders/mine.json"}}
/// ```
public struct LadderList: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "ladders"
    /// What the record says of a ladder that has no copy of the person's own.
    public static let builtIn = "built-in"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let folder = "folder", ladders = "ladders"
    }

    /// The ladders' folder.
    public var folder: String
    /// Each ladder's name and its own copy's path (nil: the built-in).
    public var ladders: [(name: String, copy: String?)]

    /// The ladders of `library`.
    public init(library: LadderLibrary) {
        self.init(folder: library.folder,
                  ladders: library.names().map { ($0, library.hasOwnCopy($0) ? library.path(of: $0) : nil) })
    }

    /// A list of `ladders` in `folder`.
    public init(folder: String, ladders: [(name: String, copy: String?)]) {
        self.folder = folder
        self.ladders = ladders
    }

    /// Reads a `ladders` record; nil when it is of another kind, or without
    /// a string `folder` and a `ladders` object of strings.
    public init?(record: JSONRecord) {
        guard record.kind == Self.kind, let folder = record.string(Field.folder),
              let object = record.object(Field.ladders) else { return nil }
        var ladders: [(name: String, copy: String?)] = []
        for name in object.keys {
            guard let place = object.string(name) else { return nil }
            ladders.append((name, place == Self.builtIn ? nil : place))
        }
        self.init(folder: folder, ladders: ladders)
    }

    /// The `ladders` record: the folder, and each ladder's copy or "built-in"
    /// under a key of its own (a ladder may be named "kind").
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set("kind", Self.kind)
        record.set(Field.folder, folder)
        let object = record.setObject(Field.ladders)
        for ladder in ladders { object.set(ladder.name, ladder.copy ?? Self.builtIn) }
        return record
    }

    /// One line a ladder, a copy's path beside its name.
    public func lines() -> [String] {
        ladders.map { ladder in ladder.name + (ladder.copy.map { "  (your copy: \($0))" } ?? "") }
    }

    /// Two lists are equal when they name the same folder and the same ladders, in order.
    public static func == (lhs: LadderList, rhs: LadderList) -> Bool {
        lhs.folder == rhs.folder && lhs.ladders.elementsEqual(rhs.ladders) { $0.name == $1.name && $0.copy == $1.copy }
    }
}
