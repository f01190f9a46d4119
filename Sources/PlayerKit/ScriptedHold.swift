import FoundationEssentials
import Glibc
import SposureKit

/// A scripted hold change: `{"t_ms":1200,"down":true}`.
public struct ScriptedHold: Sendable, Equatable {
    /// When, in ms of the session.
    public var atMs: Int
    /// Held (true) or let go.
    public var down: Bool

    /// A change to `down` at `atMs`.
    public init(atMs: Int, down: Bool) {
        self.atMs = atMs
        self.down = down
    }

    /// Reads a hold script: one JSON object a line; blank lines skipped.
    public static func load(path: String) throws -> [ScriptedHold] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var holds: [ScriptedHold] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingWhitespace()
            guard !trimmed.isEmpty else { continue }
            let record: JSONRecord
            do { record = try JSONRecord.parse(trimmed) } catch {
                throw ScriptError(message: "\(path):\(number + 1): \(error)")
            }
            guard let at = record.int("t_ms"), at >= 0, let down = record.bool("down") else {
                throw ScriptError(message: "\(path):\(number + 1): each line needs \"t_ms\" (≥ 0) and \"down\" (true or false)")
            }
            holds.append(ScriptedHold(atMs: at, down: down))
        }
        return holds.sorted { $0.atMs < $1.atMs }
    }

    /// A hold script that cannot be read.
    public struct ScriptError: Error, CustomStringConvertible {
        /// What is wrong, and where.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}
