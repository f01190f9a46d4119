import RecordKit
import LadderKit
import SposureKit

/// The GIFs marked off-topic on a ladder (the `x` key in gif-play), and the
/// words their titles repeat, so a person can spot one to avoid:
/// `score ladder NAME` shows them, `score ladder NAME --avoid WORD` adds one.
public struct LadderMarks: Sendable, Equatable {
    /// The marks, oldest first.
    public var marks: [OffTopicMark]
    /// Words in two or more marked titles, most first: not a word of the
    /// ladder's queries, not one it avoids already, not a small word.
    public var words: [Word]

    /// A word and how many marked titles hold it.
    public struct Word: Sendable, Equatable {
        public var word: String
        public var count: Int
    }

    /// The marks shown in text (the latest); the JSON has them all.
    public static let shown = 10

    /// Words too common to tell anything.
    static let small: Set<String> = ["a", "an", "and", "the", "of", "in", "on", "at", "to", "by", "for", "with", "is", "it",
                                     "s", "gif", "gifs", "my", "me", "you", "i", "this", "that", "from", "new", "so"]

    /// The marks given on `ladder`, and their repeated words.
    public init(marks: [OffTopicMark], ladder: Ladder) {
        self.marks = marks
        var known: Set<String> = Self.small
        for rung in ladder.rungs {
            for query in rung.queries { known.formUnion(AvoidList.words(query)) }
        }
        let avoided = AvoidList(ladder.avoid + ladder.rungs.flatMap(\.avoid))
        var counts: [String: Int] = [:]
        var order: [String] = []
        for mark in marks {
            for word in Set(AvoidList.words(RemoteText.strip(mark.title ?? ""))) where !known.contains(word) && !avoided.contains(word) {
                if counts[word] == nil { order.append(word) }
                counts[word, default: 0] += 1
            }
        }
        words = order.compactMap { word in counts[word].flatMap { $0 >= 2 ? Word(word: word, count: $0) : nil } }
            .sorted { ($0.count, $1.word) > ($1.count, $0.word) }
    }

    /// The lines `score ladder NAME` adds below its table; none without marks.
    public func lines(ladder name: String) -> [String] {
        guard !marks.isEmpty else { return [] }
        var lines = ["", "Marked off-topic on this ladder (x in gif-play): \(marks.count) GIF\(marks.count == 1 ? "" : "s"), never listed again"]
        for mark in marks.suffix(Self.shown) {
            let title = RemoteText.strip(mark.title ?? "").prefix(60)
            let place = [mark.rung.map { "rung \($0)" }, mark.query.map { "\"\(RemoteText.strip($0))\"" }].compactMap { $0 }.joined(separator: " ")
            lines.append("  " + (place.isEmpty ? "" : place + ": ") + (title.isEmpty ? "(no title)" : String(title))
                         + " (\(RemoteText.strip(mark.source)):\(RemoteText.strip(mark.id)))")
        }
        if marks.count > Self.shown { lines.append("  … and \(marks.count - Self.shown) earlier") }
        if let first = words.first {
            lines.append("Words their titles repeat: " + words.prefix(8).map { "\($0.word) \($0.count)" }.joined(separator: ", "))
            lines.append("  score ladder \(name) --avoid \(first.word)   leaves GIFs with it out of every rung (your copy)")
        }
        return lines
    }

    /// Writes `marks` (each mark's record) and `mark_words` into the ladder's JSON record.
    public func write(to record: JSONRecord) {
        for mark in marks {
            let item = record.appendObject("marks")
            let full = mark.record()
            for key in full.keys where key != "kind" { item.set(key, from: full) }
        }
        if marks.isEmpty { record.set("marks", strings: []) }
        let words = record.setObject("mark_words")
        for word in self.words { words.set(word.word, word.count) }
    }
}
