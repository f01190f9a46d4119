import FoundationEssentials
import Glibc
import SposureKit

extension LadderLibrary {
    /// What ``avoid(_:in:)`` did.
    public struct AvoidChange: Sendable, Equatable {
        /// The person's copy, written or left as it was.
        public var path: String
        /// The copy was made from the built-in first.
        public var madeCopy: Bool
        /// The word was added (false: the list spelled it already, and nothing was written).
        public var added: Bool
    }

    /// Adds `word` to the ladder-wide `"avoid"` list of the person's copy of
    /// `name`, making the copy from the built-in when there is none (the
    /// built-in stays as it is). The copy is read and checked first, and the
    /// new text checked again before it replaces the old: a ladder is never
    /// left broken. Its layout becomes the built-ins' (a field a line, a rung a line).
    public func avoid(_ word: String, in name: String) throws(CopyError) -> AvoidChange {
        if let problem = AvoidList.problem(word) { throw CopyError(description: "--avoid: \(problem)", isUsage: true) }
        var madeCopy = false
        if !hasOwnCopy(name) {
            try copy(name)
            madeCopy = true
        }
        let target = path(of: name)
        let ladder: Ladder
        do {
            ladder = try LadderFile.read(path: target, expectedName: name)
        } catch {
            throw CopyError(description: error.description, isUsage: true)
        }
        guard !AvoidList(ladder.avoid).contains(word) else { return AvoidChange(path: target, madeCopy: madeCopy, added: false) }
        let record: JSONRecord
        do {
            record = try JSONRecord.parse(readFile(target, maxBytes: LadderFile.maxBytes))
        } catch {
            throw CopyError(description: "cannot read \(target): \(error)")
        }
        record.set("avoid", strings: ladder.avoid + [word])
        let text = Self.layout(record)
        do {
            _ = try LadderFile.parse(text, file: target, expectedName: name)
            try writeAtomically(Array(text.utf8), to: target, as: .program, mode: 0o644)
        } catch {
            throw CopyError(description: "cannot write \(target): \(error)")
        }
        return AvoidChange(path: target, madeCopy: madeCopy, added: true)
    }

    /// A ladder's text in the built-ins' layout: a field a line, the avoid
    /// list wrapped, a rung a line.
    static func layout(_ record: JSONRecord) -> String {
        var fields: [String] = []
        for key in record.keys {
            let name = quoted(key)
            switch key {
            case "rungs":
                let rungs = (record.objects(key) ?? []).map { "    " + $0.text }
                fields.append("  \(name): [\n" + rungs.joined(separator: ",\n") + "\n  ]")
            case "avoid":
                fields.append("  \(name): [\n" + wrapped((record.strings(key) ?? []).map(quoted)) + "\n  ]")
            default:
                fields.append("  \(name): " + (record.jsonText(key) ?? "null"))
            }
        }
        return "{\n" + fields.joined(separator: ",\n") + "\n}\n"
    }

    /// `items` joined by ", ", four spaces in, lines of at most about 96 columns.
    private static func wrapped(_ items: [String]) -> String {
        var lines: [String] = []
        var line = ""
        for item in items {
            if !line.isEmpty && line.count + 2 + item.count > 92 {
                lines.append(line + ",")
                line = item
            } else {
                line = line.isEmpty ? item : line + ", " + item
            }
        }
        lines.append(line)
        return lines.map { "    " + $0 }.joined(separator: "\n")
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        let holder = JSONRecord()
        holder.set("s", text)
        return holder.jsonText("s") ?? "\"\""
    }
}
