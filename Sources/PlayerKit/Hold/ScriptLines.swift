import SposureKit

/// The lines of a script a person wrote or recorded (`--hold script:FILE`,
/// `--ratings script:FILE`): one JSON object a line, blank lines skipped,
/// lines ended by LF, CRLF or CR, a byte-order mark at the start skipped.
/// Every fault is one ``ScriptedHold/ScriptError`` naming the file and line.
enum ScriptLines {
    /// The largest script read (a recorded hold script of an hour of play is
    /// a few hundred KiB).
    static let maxBytes = 16 << 20

    /// The records of the file at `path`, each with its line number.
    static func read(path: String) throws(ScriptedHold.ScriptError) -> [(line: Int, record: JSONRecord)] {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try readFile(path, maxBytes: maxBytes)
        } catch {
            throw ScriptedHold.ScriptError(message: error.description)
        }
        return try records(bytes, name: path)
    }

    /// The records of a script's bytes, named `name` in messages.
    static func records(_ given: [UInt8], name: String) throws(ScriptedHold.ScriptError) -> [(line: Int, record: JSONRecord)] {
        let bytes = given.starts(with: [0xEF, 0xBB, 0xBF]) ? given.dropFirst(3) : given[...]
        var result: [(line: Int, record: JSONRecord)] = []
        var number = 0
        var start = bytes.startIndex
        var index = start
        while start < bytes.endIndex {
            while index < bytes.endIndex && bytes[index] != 0x0A && bytes[index] != 0x0D { index += 1 }
            number += 1
            var line = bytes[start..<index]
            while let first = line.first, first == 0x20 || first == 0x09 { line = line.dropFirst() }
            while let last = line.last, last == 0x20 || last == 0x09 { line = line.dropLast() }
            if !line.isEmpty {
                var failure: JSONRecord.ParseError?
                line.withUnsafeBytes { raw in
                    do throws(JSONRecord.ParseError) { result.append((number, try JSONRecord.parse(raw))) } catch { failure = error }
                }
                if let failure { throw ScriptedHold.ScriptError(message: "\(name):\(number): \(failure)") }
            }
            // CRLF is one end of line.
            if index < bytes.endIndex && bytes[index] == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A { index += 1 }
            index += 1
            start = index
        }
        return result
    }
}
