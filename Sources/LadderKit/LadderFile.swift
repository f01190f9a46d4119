import FoundationEssentials
import Glibc
import SposureKit

/// Reads and checks a ladder file; every fault is one ``LadderError`` naming
/// the file, the field and what is wrong (the first fault found, in file order).
public enum LadderFile {
    /// The fields a ladder may have.
    static let ladderKeys: Set<String> = ["name", "title", "expectation", "rungs", "rules", "avoid"]
    /// The fields a rung may have.
    static let rungKeys = ["query", "queries", "dir", "suds", "still", "approach", "avoid", "by_provider"]
    /// The longest query (Giphy answers 414 past it).
    public static let maxQueryLength = 50

    /// The largest ladder file read (a ladder of 15 rungs of 20 queries is a
    /// few KiB; a larger file is a mistake, not a ladder).
    public static let maxBytes = 1 << 20

    /// Reads the ladder at `path`; `expectedName` (from the file name) must match its `name` when given.
    public static func read(path: String, expectedName: String? = nil) throws(LadderError) -> Ladder {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try readFile(path, maxBytes: maxBytes)
        } catch {
            throw LadderError(file: path, problem: error.isMissing ? "no such file" : "cannot be read: \(error.reason)")
        }
        return try parse(bytes, file: path, expectedName: expectedName)
    }

    /// Parses a ladder's JSON text; `file` names it in messages.
    public static func parse(_ text: String, file: String, expectedName: String? = nil) throws(LadderError) -> Ladder {
        try parse(Array(text.utf8), file: file, expectedName: expectedName)
    }

    /// Parses a ladder's JSON bytes; `file` names it in messages.
    public static func parse(_ given: [UInt8], file: String, expectedName: String? = nil) throws(LadderError) -> Ladder {
        // A byte-order mark, which some editors put first, is not the JSON.
        let bytes = given.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(given.dropFirst(3)) : given
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            throw LadderError(file: file, problem: "the file is empty")
        }
        let value: JSONValue
        do throws(JSONValue.ParseError) {
            value = try JSONValue.parse(bytes)
        } catch {
            // A field given twice is JSON, but no ladder: which one counts would be a guess.
            let what = error.isDuplicateKey ? "" : "not valid JSON: "
            throw LadderError(file: file, line: error.line, problem: what + error.message)
        }
        guard case .object(let object) = value else {
            throw LadderError(file: file, problem: "a ladder is a JSON object, found \(value.described)")
        }
        return try ladder(object, file: file, expectedName: expectedName)
    }

    private static func ladder(_ object: [String: JSONValue], file: String, expectedName: String?) throws(LadderError) -> Ladder {
        func fail(_ field: String?, _ problem: String) -> LadderError {
            LadderError(file: file, field: field, problem: problem)
        }
        if let unknown = object.keys.sorted().first(where: { !ladderKeys.contains($0) }) {
            throw fail("\"\(unknown)\"", "unknown field (a ladder has name, title, expectation, rungs, rules, avoid)")
        }
        let name = try requiredString(object, "name", file: file)
        guard name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }),
              name.utf8.count <= 40 else {
            throw fail("\"name\"", "\"\(name.prefix(40))\" must be lower-case letters, digits, - or _ (at most 40)")
        }
        if let expectedName, expectedName != name {
            throw fail("\"name\"", "\"\(name)\" but the file is \(expectedName).json")
        }
        let title = try requiredString(object, "title", file: file)
        var expectation: String?
        if let value = object["expectation"] {
            guard case .string(let text) = value else { throw fail("\"expectation\"", "must be a string, found \(value.described)") }
            if let problem = controlProblem(text) { throw fail("\"expectation\"", problem) }
            expectation = text.isEmpty ? nil : text
        }
        guard let rungsValue = object["rungs"] else { throw fail("\"rungs\"", "missing") }
        guard case .array(let items) = rungsValue else { throw fail("\"rungs\"", "must be an array of rungs, found \(rungsValue.described)") }
        guard Ladder.rungCount.contains(items.count) else {
            throw fail("\"rungs\"", "\(items.count) rungs; a ladder has \(Ladder.rungCount.lowerBound) to \(Ladder.rungCount.upperBound)")
        }
        var rungs: [Rung] = []
        for (index, item) in items.enumerated() {
            let rung = try self.rung(item, number: index + 1, file: file)
            if let previous = rungs.last {
                let where_ = "rung \(index + 1), \"suds\""
                if rung.suds < previous.suds {
                    throw fail(where_, "\(rung.suds) falls below rung \(index)'s \(previous.suds) (SUDS rise from rung to rung)")
                }
                if rung.suds - previous.suds > Ladder.largestGap {
                    throw fail(where_, "\(rung.suds) is \(rung.suds - previous.suds) over rung \(index)'s \(previous.suds); rungs differ by at most \(Ladder.largestGap)")
                }
            }
            rungs.append(rung)
        }
        var rules = LadderRules()
        if let value = object["rules"] {
            guard case .object(let given) = value else { throw fail("\"rules\"", "must be an object, found \(value.described)") }
            rules = try self.rules(given, file: file)
        }
        let avoid = try object["avoid"].map { value throws(LadderError) in try avoidList(value, file: file, field: "\"avoid\"") } ?? []
        // A rung's pages carry the ladder's list and the rung's together: one limit for both.
        for (index, rung) in rungs.enumerated() where !rung.avoid.isEmpty {
            let together = AvoidList(avoid + rung.avoid).entries.count
            if together > AvoidList.maxEntries {
                throw fail("rung \(index + 1), \"avoid\"", "\(together) entries with the ladder's own; a rung's pages carry at most \(AvoidList.maxEntries)")
            }
        }
        return Ladder(name: name, title: title, expectation: expectation, rungs: rungs, rules: rules, avoid: avoid)
    }

    /// An `"avoid"` list: an array of at most ``AvoidList/maxEntries`` words or phrases (``AvoidList/problem(_:)``).
    static func avoidList(_ value: JSONValue, file: String, field: String) throws(LadderError) -> [String] {
        func fail(_ problem: String) -> LadderError { LadderError(file: file, field: field, problem: problem) }
        guard case .array(let items) = value else { throw fail("must be an array of words or phrases, found \(value.described)") }
        guard items.count <= AvoidList.maxEntries else { throw fail("\(items.count) entries; a list has at most \(AvoidList.maxEntries)") }
        var entries: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let entry) = item else { throw fail("entry \(index + 1) must be a string, found \(item.described)") }
            if let problem = AvoidList.problem(entry) { throw fail("entry \(index + 1): \(problem)") }
            entries.append(entry)
        }
        return entries
    }

    private static func requiredString(_ object: [String: JSONValue], _ key: String, file: String) throws(LadderError) -> String {
        guard let value = object[key] else { throw LadderError(file: file, field: "\"\(key)\"", problem: "missing") }
        guard case .string(let text) = value, !text.trimmingWhitespace().isEmpty else {
            throw LadderError(file: file, field: "\"\(key)\"", problem: "must be a non-empty string, found \(value.described)")
        }
        if let problem = controlProblem(text) { throw LadderError(file: file, field: "\"\(key)\"", problem: problem) }
        return text
    }

    /// What is wrong with text holding a character a terminal acts on (an
    /// escape, a line break, a right-to-left override): a ladder's words are
    /// shown on screen, and a shared ladder file is someone else's text.
    static func controlProblem(_ text: String) -> String? {
        guard let scalar = text.unicodeScalars.first(where: { RemoteText.isTerminalControl($0) || isHidden($0) }) else { return nil }
        return "holds the control character U+\(String(cFormat: "%04X", scalar.value)); a ladder's text is plain, on one line"
    }

    /// A line or paragraph separator (a line break by another name), or a
    /// character that shows nothing and joins nothing (zero-width space, word
    /// joiner and the invisible operators, zero-width no-break space, the
    /// Mongolian vowel separator): text that is not what it looks like. The
    /// joiners U+200C and U+200D stay: scripts and emoji need them.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029, 0x200B, 0x2060...0x2064, 0xFEFF, 0x180E: return true
        default: return false
        }
    }

    private static func rung(_ value: JSONValue, number: Int, file: String) throws(LadderError) -> Rung {
        func fail(_ key: String?, _ problem: String) -> LadderError {
            LadderError(file: file, field: "rung \(number)" + (key.map { ", \"\($0)\"" } ?? ""), problem: problem)
        }
        guard case .object(let object) = value else { throw fail(nil, "must be an object, found \(value.described)") }
        if let unknown = object.keys.sorted().first(where: { !rungKeys.contains($0) }) {
            throw fail(unknown, "unknown field (a rung has \(rungKeys.joined(separator: ", ")))")
        }
        let given = ["query", "queries", "dir"].filter { object[$0] != nil }
        guard !given.isEmpty else { throw fail(nil, "needs \"query\", \"queries\" or \"dir\"") }
        guard given.count == 1 else { throw fail(nil, "give one of \"query\", \"queries\" or \"dir\", not \(given.map { "\"\($0)\"" }.joined(separator: " and "))") }
        guard let sudsValue = object["suds"] else { throw fail("suds", "missing (the distress expected, 0–100)") }
        guard case .int(let suds) = sudsValue else { throw fail("suds", "must be a whole number 0–100, found \(sudsValue.described)") }
        guard (0...100).contains(suds) else { throw fail("suds", "\(suds) is outside 0–100") }
        var still = false
        if let value = object["still"] {
            guard case .bool(let flag) = value else { throw fail("still", "must be true or false, found \(value.described)") }
            still = flag
        }
        var approach = false
        if let value = object["approach"] {
            guard case .bool(let flag) = value else { throw fail("approach", "must be true or false, found \(value.described)") }
            approach = flag
        }
        func query(_ value: JSONValue, _ key: String) throws(LadderError) -> String {
            guard case .string(let text) = value, !text.trimmingWhitespace().isEmpty else {
                throw fail(key, "must be a non-empty string, found \(value.described)")
            }
            if let problem = controlProblem(text) { throw fail(key, problem) }
            guard text.count <= maxQueryLength else {
                throw fail(key, "\"\(text.prefix(20))…\" is \(text.count) characters; a query has at most \(maxQueryLength)")
            }
            return text
        }
        let avoid = try object["avoid"].map { value throws(LadderError) in
            try avoidList(value, file: file, field: "rung \(number), \"avoid\"")
        } ?? []
        if given[0] == "dir" && !avoid.isEmpty { throw fail("avoid", "a rung of your own GIFs (\"dir\") has nothing to avoid") }
        // "by_provider": {"commons": "Salticidae"} or {"commons": ["…", "…"]}: an API's own searches
        // (checked, and unused, on a "dir" rung: a rung copied and turned into a folder stays valid).
        var byProvider: [String: [String]] = [:]
        if let value = object["by_provider"] {
            guard case .object(let named) = value, !named.isEmpty else {
                throw fail("by_provider", "must be an object of API names (\"commons\") and their query or queries")
            }
            for (name, entry) in named.sorted(by: { $0.key < $1.key }) {
                let key = "by_provider\", \"\(name)"
                guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
                    throw fail("by_provider", "\"\(RemoteText.clean(name, limit: 20))\" is not an API name (giphy, klipy, commons)")
                }
                if case .array(let items) = entry {
                    guard !items.isEmpty else { throw fail(key, "must be a query or a non-empty array of queries") }
                    var queries: [String] = []
                    for item in items { queries.append(try query(item, key)) }
                    byProvider[name] = queries
                } else {
                    byProvider[name] = [try query(entry, key)]
                }
            }
        }
        switch given[0] {
        case "query":
            var rung = Rung(queries: [try query(object["query"] ?? .null, "query")], suds: suds, still: still, avoid: avoid)
            rung.providerQueries = byProvider
            rung.approach = approach
            return rung
        case "queries":
            guard case .array(let items) = object["queries"] ?? .null, !items.isEmpty else {
                throw fail("queries", "must be a non-empty array of strings")
            }
            var queries: [String] = []
            for item in items { queries.append(try query(item, "queries")) }
            var rung = Rung(queries: queries, suds: suds, still: still, avoid: avoid)
            rung.providerQueries = byProvider
            rung.approach = approach
            return rung
        default:
            guard case .string(let dir) = object["dir"] ?? .null, !dir.isEmpty else {
                throw fail("dir", "must be a folder's path")
            }
            if let problem = controlProblem(dir) { throw fail("dir", problem) }
            var rung = Rung(dir: dir, suds: suds, still: still)
            rung.approach = approach
            return rung
        }
    }

    private static func rules(_ object: [String: JSONValue], file: String) throws(LadderError) -> LadderRules {
        func fail(_ key: String, _ problem: String) -> LadderError {
            LadderError(file: file, field: "rules, \"\(key)\"", problem: problem)
        }
        if let unknown = object.keys.sorted().first(where: { !LadderRules.keys.contains($0) }) {
            throw fail(unknown, "unknown rule (the rules are \(LadderRules.keys.joined(separator: ", ")))")
        }
        func number(_ key: String, _ range: ClosedRange<Int>) throws(LadderError) -> Int? {
            guard let value = object[key] else { return nil }
            guard case .int(let number) = value else { throw fail(key, "must be a whole number, found \(value.described)") }
            guard range.contains(number) else { throw fail(key, "\(number) is outside \(range.lowerBound)–\(range.upperBound)") }
            return number
        }
        var rules = LadderRules()
        if let value = try number("count_seconds", 0...3600) { rules.countMs = value * 1000 }
        if let value = try number("step_up_rounds", 1...20) { rules.stepUpRounds = value }
        if let value = try number("step_up_suds", 0...10) { rules.stepUpSuds = value }
        if let value = try number("step_up_drop_pct", 0...100) { rules.stepUpDropPercent = value }
        if let value = try number("step_down_rounds", 1...20) { rules.stepDownRounds = value }
        if let value = try number("step_down_release_seconds", 0...3600) { rules.earlyReleaseMs = value * 1000 }
        if let value = try number("step_down_peak", 0...10) { rules.stepDownPeak = value }
        if let value = object["retest_days"] {
            guard case .array(let items) = value else { throw fail("retest_days", "must be an array of days, found \(value.described)") }
            var days: [Int] = []
            for item in items {
                guard case .int(let day) = item, (1...3650).contains(day) else {
                    throw fail("retest_days", "\(item.described) is not a whole number of days 1–3650")
                }
                guard day > (days.last ?? 0) else { throw fail("retest_days", "days must rise (\(day) after \(days.last ?? 0))") }
                days.append(day)
            }
            rules.retestDays = days
        }
        if let value = try number("return_of_fear_suds", 0...10) { rules.returnOfFearSuds = value }
        if let value = try number("mix_every", 2...20) { rules.mixEvery = value }
        if let value = try number("fresh_rounds", 0...50) { rules.freshRounds = value }
        return rules
    }
}
