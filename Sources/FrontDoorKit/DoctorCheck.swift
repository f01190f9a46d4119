import RecordKit
import SposureKit

/// One line of `sposure doctor`: what was checked, how it went, and the fix.
public struct DoctorCheck: Sendable, Equatable {
    /// How a check went.
    public enum Mark: String, Sendable {
        /// In order (✓).
        case ok
        /// A round cannot be played until it is fixed (✗).
        case fail
        /// Worth knowing, not needed for a round (·).
        case info

        /// ✓, ✗ or ·.
        public var symbol: String {
            switch self {
            case .ok: return "✓"
            case .fail: return "✗"
            case .info: return "·"
            }
        }
    }

    /// What part: tools, libraries, keys, folders, history, terminal.
    public var area: String
    /// How it went.
    public var mark: Mark
    /// What was found.
    public var text: String
    /// What to do about it (for a ✗, and a · that has a remedy).
    public var fix: String?

    /// A line of `area`.
    public init(_ area: String, _ mark: Mark, _ text: String, fix: String? = nil) {
        self.area = area
        self.mark = mark
        self.text = text
        self.fix = fix
    }

    /// The check as the `doctor` record writes it.
    public var recordCheck: DoctorRecord.Check {
        DoctorRecord.Check(area: area, mark: mark.rawValue, text: text, fix: fix)
    }
}
