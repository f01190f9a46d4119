import HistoryKit
import LadderKit
import RecordKit
import SposureKit

/// What `list` left out before fetching, or held back, counted per page and
/// for the run: one `skipped` record after a page that left something out
/// (never one record per GIF), and one line on stderr at the end.
///
/// ```json
/// {"kind":"skipped","stage":"giphy-pages list","query":"cartoon spider","section":"cartoon spider","offset":0,
///  "ladder":"spiders","rung":1,"avoided":3,"off_topic":1,"rated":0,"held":2,"dropped":0,"words":{"spider-man":2,"marvel":1}}
/// ```
///
/// A page of pictures the player cannot show (Commons' SVG, TIFF, PDF,
/// video) adds `"unplayable":N,"formats":{"image/svg+xml":N,…}`.
struct SkipTally {
    /// The counts of one page, or of the run.
    struct Counts {
        /// Left out for an avoid word, by word (in the order first met).
        var words: [(word: String, count: Int)] = []
        /// Left out: marked off-topic.
        var offTopic = 0
        /// Left out: rated well above the rung.
        var rated = 0
        /// Seen in recent rounds: held back to the end.
        var held = 0
        /// Of those held, left out: the hold was full.
        var dropped = 0
        /// Left out: in a format the player cannot show, by MIME type (in the order first met).
        var formats: [(mime: String, count: Int)] = []

        /// Left out for their format.
        var unplayable: Int { formats.reduce(0) { $0 + $1.count } }

        /// Left out for an avoid word.
        var avoided: Int { words.reduce(0) { $0 + $1.count } }
        /// Left out for any reason, before fetching.
        var skipped: Int { avoided + offTopic + rated + dropped + unplayable }
        var isEmpty: Bool { skipped == 0 && held == 0 }

        /// Counts one GIF left out for `word`.
        mutating func avoid(_ word: String) {
            if let index = words.firstIndex(where: { $0.word == word }) { words[index].count += 1 } else { words.append((word, 1)) }
        }

        /// The most formats named apart; the rest are counted as ``otherFormats``
        /// (an answer may name a new type for each of its results).
        static let namedFormats = 8
        /// The name the formats past ``namedFormats`` are counted under.
        static let otherFormats = "other"

        /// Counts one result left out for its format, `mime` (case folded).
        mutating func unplayable(_ mime: String, count: Int = 1) {
            var mime = mime.lowercased()
            if formats.count >= Self.namedFormats && !formats.contains(where: { $0.mime == mime }) { mime = Self.otherFormats }
            if let index = formats.firstIndex(where: { $0.mime == mime }) { formats[index].count += count } else { formats.append((mime, count)) }
        }

        mutating func add(_ other: Counts) {
            for (word, count) in other.words {
                for _ in 0..<count { avoid(word) }
            }
            for (mime, count) in other.formats { unplayable(mime, count: count) }
            offTopic += other.offTopic
            rated += other.rated
            held += other.held
            dropped += other.dropped
        }
    }

    /// The run's counts so far.
    private(set) var total = Counts()

    /// Adds a page's counts; returns its `skipped` record, nil when it left out and held back nothing.
    mutating func add(_ counts: Counts, page: PageRequest, record pageRecord: JSONRecord, stage: String) -> JSONRecord? {
        guard !counts.isEmpty else { return nil }
        total.add(counts)
        var skipped = SkippedRecord(stage: stage, provider: page.provider == .recordDefault ? nil : page.provider.rawValue,
                                    query: page.query, section: page.section, offset: page.offset,
                                    ladder: LadderTag(record: pageRecord).map { ($0.ladder, $0.rung) })
        (skipped.offTopic, skipped.rated, skipped.held, skipped.dropped) = (counts.offTopic, counts.rated, counts.held, counts.dropped)
        skipped.words = counts.words
        skipped.formats = counts.formats
        return skipped.record()
    }

    /// The line said at the end of the run; nil when nothing was left out or held back.
    var line: String? {
        let total = total
        var parts: [String] = []
        if total.avoided > 0 {
            parts.append("\(total.avoided) avoided (" + total.words.map { "\($0.word) \($0.count)" }.joined(separator: ", ") + ")")
        }
        if total.offTopic > 0 { parts.append("\(total.offTopic) marked off-topic") }
        if total.unplayable > 0 {
            parts.append("\(total.unplayable) in formats the player cannot show (" + total.formats.map { "\($0.mime) \($0.count)" }.joined(separator: ", ") + ")")
        }
        if total.rated > 0 { parts.append("\(total.rated) rated well above the rung") }
        if total.dropped > 0 { parts.append("\(total.dropped) seen lately, past the \(FreshOrder.capacity) held back") }
        var line = parts.isEmpty ? "" : "skipped \(total.skipped) GIF\(total.skipped == 1 ? "" : "s") before fetching: " + parts.joined(separator: ", ")
        let listedLast = total.held - total.dropped
        if listedLast > 0 {
            let held = "\(listedLast) GIF\(listedLast == 1 ? "" : "s") seen in recent rounds listed last"
            line = line.isEmpty ? held : line + "; " + held
        }
        return line.isEmpty ? nil : line
    }
}
