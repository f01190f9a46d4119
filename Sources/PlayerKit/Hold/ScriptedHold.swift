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
    public static func load(path: String) throws(ScriptError) -> [ScriptedHold] {
        var holds: [ScriptedHold] = []
        for (number, record) in try ScriptLines.read(path: path) {
            guard let at = record.int("t_ms"), at >= 0, let down = record.bool("down") else {
                throw ScriptError(message: "\(path):\(number): each line needs \"t_ms\" (a whole number of ms ≥ 0) and \"down\" (true or false)")
            }
            holds.append(ScriptedHold(atMs: at, down: down))
        }
        return holds.sorted { $0.atMs < $1.atMs }
    }

    /// A hold script that cannot be read.
    public struct ScriptError: Error, CustomStringConvertible, Sendable {
        /// What is wrong, and where.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}
