import SposureKit

/// Words and phrases whose GIFs a round leaves out (`"avoid"` in a ladder
/// file, `--avoid` on the command line): a film's hero in a spiders round.
///
/// Matching is by words, case aside, and blind to how a phrase is joined.
/// Text and entries alike are cut into words: a word is a run of letters
/// and digits; anything else (a space, a hyphen, an apostrophe, `#`, `_`)
/// ends one, and so do a small letter followed by a capital (`SpiderMan`)
/// and a change between letters and digits (`spiderman2`). An entry matches
/// when one or more words in a row of the text, run together, spell the
/// entry's words run together. So "spider-man", "spider man", "Spiderman"
/// and "SpiderMan" each match all four, "marvel" matches "Marvel's" and
/// "#marvel", but "spider" never matches "spiders" nor "spiderman": a word
/// matches whole. Accented letters are their own letters ("pokémon" is not
/// "pokemon": give both when both are written).
public struct AvoidList: Sendable, Equatable {
    /// The entries as given, in order, without repeats (two that spell the same words are one).
    public private(set) var entries: [String] = []
    /// Each entry's words run together, lower-case, by entry.
    private var keys: [String: String] = [:]
    /// The same keys, to look up.
    private var spelled: Set<String> = []
    private var longest = 0

    /// The longest entry, in characters.
    public static let maxLength = 50
    /// The most entries of one list.
    public static let maxEntries = 500

    /// An empty list.
    public init() {}

    /// A list of `entries` (unchecked: ``problem(_:)`` says what is wrong with one).
    public init(_ entries: [String]) {
        for entry in entries { add(entry) }
    }

    /// Whether there is nothing to avoid.
    public var isEmpty: Bool { entries.isEmpty }

    /// Adds `entry`, unless one spelling the same words is there; returns whether it was added.
    @discardableResult
    public mutating func add(_ entry: String) -> Bool {
        let key = Self.words(entry).joined()
        guard !key.isEmpty, spelled.insert(key).inserted else { return false }
        entries.append(entry)
        keys[entry] = key
        longest = max(longest, key.count)
        return true
    }

    /// This list with `other`'s entries after its own.
    public func merged(with other: AvoidList) -> AvoidList {
        var merged = self
        for entry in other.entries { merged.add(entry) }
        return merged
    }

    /// Whether `entry` spells the same words as one of the list's.
    public func contains(_ entry: String) -> Bool {
        spelled.contains(Self.words(entry).joined())
    }

    /// The first entry that one of `texts` holds, in the list's order; nil when none does.
    public func match(_ texts: [String]) -> String? {
        guard !entries.isEmpty else { return nil }
        var found: Set<String> = []
        for text in texts where !text.isEmpty {
            let words = Self.words(text)
            for start in words.indices {
                var run = ""
                for word in words[start...] {
                    run += word
                    guard run.count <= longest else { break }
                    found.insert(run)
                }
            }
        }
        return entries.first { keys[$0].map(found.contains) ?? false }
    }

    /// What is wrong with `entry` as an avoid entry, nil when nothing is:
    /// blank, no letter or digit, too long, or holding a control character.
    public static func problem(_ entry: String) -> String? {
        if entry.trimmingWhitespace().isEmpty { return "an entry is empty" }
        if let problem = LadderFile.controlProblem(entry) { return problem }
        if entry.count > maxLength {
            return "\"\(entry.prefix(20))…\" is \(entry.count) characters; an entry has at most \(maxLength)"
        }
        if words(entry).isEmpty { return "\"\(entry)\" has no letter or digit to match" }
        return nil
    }

    /// `text` cut into lower-case words (see the type's summary).
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in text {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.append(word) }
                word = ""
                previous = nil
                continue
            }
            if let previous, !word.isEmpty, Self.isBreak(previous, character) {
                words.append(word)
                word = ""
            }
            word += character.lowercased()
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// A small letter then a capital, or a letter against a digit.
    private static func isBreak(_ previous: Character, _ next: Character) -> Bool {
        if previous.isLowercase && next.isUppercase { return true }
        return previous.isNumber != next.isNumber
    }
}
