import FoundationEssentials
import Glibc
import SposureKit

/// A scripted hold change: `{"t_ms":1200,"down":true}`.
public struct ScriptedHold: Sendable, Equatable {
    /// When, in ms of the session.
    public var atMs: Int
    /// Held (true) or let go.
    public var down: Bool

    /// The field names of a hold script's lines, spelled once.
    public enum Field {
        public static let tMs = "t_ms", down = "down", key = "key"
    }

    /// A change to `down` at `atMs`.
    public init(atMs: Int, down: Bool) {
        self.atMs = atMs
        self.down = down
    }

    /// Reads a hold script's holds: one JSON object a line; blank lines skipped.
    public static func load(path: String) throws(ScriptError) -> [ScriptedHold] {
        try loadScript(path: path).holds
    }

    /// Reads a hold script: its holds, `{"t_ms":1200,"down":true}`, and the
    /// keys it presses, `{"t_ms":4200,"key":"x"}` (x, the off-topic mark,
    /// is the one key a script presses), each in time order.
    public static func loadScript(path: String) throws(ScriptError) -> (holds: [ScriptedHold], keys: [ScriptedKey]) {
        var holds: [ScriptedHold] = []
        var keys: [ScriptedKey] = []
        for (number, record) in try ScriptLines.read(path: path) {
            let fail = { (what: String) in ScriptError(message: "\(path):\(number): \(what)") }
            if record.has(Field.key) {
                guard let at = record.int(Field.tMs), at >= 0 else { throw fail("a key line needs \"t_ms\" (a whole number of ms ≥ 0)") }
                guard record.string(Field.key) == "x", !record.has(Field.down) else {
                    throw fail("\"key\" can only be \"x\" (the off-topic mark), on a line of its own: {\"t_ms\":4200,\"key\":\"x\"}")
                }
                keys.append(ScriptedKey(atMs: at, key: .offTopic))
                continue
            }
            guard let at = record.int(Field.tMs), at >= 0, let down = record.bool(Field.down) else {
                throw fail("each line needs \"t_ms\" (a whole number of ms ≥ 0) and \"down\" (true or false), or \"key\": \"x\"")
            }
            holds.append(ScriptedHold(atMs: at, down: down))
        }
        return (holds.sorted { $0.atMs < $1.atMs }, keys.sorted { $0.atMs < $1.atMs })
    }

    /// A hold script that cannot be read.
    public struct ScriptError: Error, CustomStringConvertible, Sendable {
        /// What is wrong, and where.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}

/// A key a hold script presses: `{"t_ms":4200,"key":"x"}`.
public struct ScriptedKey: Sendable, Equatable {
    /// When, in ms of the session.
    public var atMs: Int
    /// The key (``RoundKey/offTopic``).
    public var key: RoundKey

    /// `key` pressed at `atMs`.
    public init(atMs: Int, key: RoundKey) { (self.atMs, self.key) = (atMs, key) }
}
