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
///
/// Both are matched as a person sees them (issue 28): escape sequences and
/// controls removed whole (`Spider\e[0m-Man` is shown as "Spider-Man"), then
/// what takes no room (zero-width joiners and spaces, soft hyphens, variation
/// selectors, the combining grapheme joiner), and letters that look like
/// ASCII letters and digits folded to them: compatibility forms (full-width,
/// mathematical, circled, superscript) and the common Cyrillic and Greek
/// look-alikes (``folds``, made by `scripts/avoid-folds`). Texts are cut to
/// ``maxTextLength`` characters first, and matching is linear in the text.
public struct AvoidList: Sendable, Equatable {
    /// The entries as given, in order, without repeats (two that spell the same words are one).
    public private(set) var entries: [String] = []
    /// Each entry's words run together, lower-case, by entry.
    private var keys: [String: String] = [:]
    /// Each key's place in ``entries``, to look up.
    private var ranks: [String: Int] = [:]
    /// The longest key, in characters.
    private var longest = 0

    /// The longest entry, in characters.
    public static let maxLength = 50
    /// The most entries of one list, and of the lists one page carries
    /// together (a ladder's, its rung's and `plan --avoid`'s).
    public static let maxEntries = 500
    /// The longest text matched, in characters: a title, a tag or a name
    /// past it is cut first (a megabyte of title is not read word by word).
    public static let maxTextLength = 1024

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
        guard !key.isEmpty, ranks[key] == nil else { return false }
        ranks[key] = entries.count
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
        ranks[Self.words(entry).joined()] != nil
    }

    /// The first entry that one of `texts` holds, in the list's order; nil
    /// when none does. Each run of words that starts a word is looked up
    /// while it is no longer than the longest entry: linear in the text.
    public func match(_ texts: [String]) -> String? {
        guard !entries.isEmpty else { return nil }
        var best = Int.max
        for text in texts where !text.isEmpty {
            let words = Self.words(String(text.prefix(Self.maxTextLength)))
            for start in words.indices {
                var run = "", length = 0
                for word in words[start...] {
                    length += word.count
                    guard length <= longest else { break }
                    run += word
                    if let rank = ranks[run], rank < best {
                        best = rank
                        if rank == 0 { return entries[0] }
                    }
                }
            }
        }
        return best == Int.max ? nil : entries[best]
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
        if let odd = entry.first(where: { !isWordCharacter($0) }) {
            return "\"\(entry)\": \"\(odd)\" is not part of a word or phrase (an entry is matched as whole words, not as a pattern)"
        }
        return nil
    }

    /// Letters, digits, spaces and what joins the words of a name
    /// (`spider-man`, `marvel's`, `#marvel`, `dr. octopus`, `tom & jerry`).
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character.isWhitespace || "-'\u{2019}._&#@!,:".contains(character)
            || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .nonspacingMark }
    }

    /// `text` cut into lower-case words (see the type's summary), as it is shown.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in shown(text) {
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

    /// `text` as a terminal shows it, look-alikes folded: escape sequences
    /// and controls removed whole (``RemoteText/strip(_:)``), then what takes
    /// no room, then ``folds``.
    static func shown(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in RemoteText.strip(text).unicodeScalars where !takesNoRoom(scalar) {
            if let folded = fold(scalar) {
                out.append(contentsOf: folded.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Format characters (zero-width joiner, non-joiner and space, word
    /// joiner, soft hyphen, bidi marks, tags), variation selectors, the
    /// combining grapheme joiner and the Hangul and Mongolian fillers.
    private static func takesNoRoom(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x3164, 0xFE00...0xFE0F, 0xFFA0, 0xE0100...0xE01EF:
            return true
        default:
            return scalar.properties.generalCategory == .format
        }
    }

    /// What `scalar` looks like in ASCII letters and digits; nil when it is its own.
    private static func fold(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        guard value >= 0x80 else { return nil }
        var low = 0, high = folds.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let row = folds[middle]
            if value < row.first {
                high = middle - 1
            } else if value > row.last {
                low = middle + 1
            } else if value == row.first {
                return row.to
            } else {
                // One character a code point along the range.
                return row.to.unicodeScalars.first.flatMap { Unicode.Scalar($0.value + value - row.first) }.map { String($0) }
            }
        }
        return nil
    }
}
