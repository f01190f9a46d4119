import FoundationEssentials
import Glibc
import SposureKit

/// Where Sposure keeps what lasts across runs (score's history, the call
/// budget, Klipy's customer id): `$SPOSURE_DATA`, else
/// `$XDG_DATA_HOME/sposure` (when absolute), else `~/.local/share/sposure`,
/// as ScoreKit's `HistoryFile` finds it.
public enum DataFolder {
    /// The folder, not necessarily made yet.
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Folders.data(environment: environment)
    }

    /// Makes `folder` and its parents (0700 for the new ones); false when it cannot.
    static func make(_ folder: String) -> Bool {
        (try? Folders.make(folder)) != nil
    }

    /// Klipy's `customer_id`: a random id made once and kept in `folder`
    /// (`klipy-customer-id`), never anything about the person. Two processes
    /// making it at once agree: the first file linked into place wins.
    public static func customerID(in folder: String) -> String {
        let path = folder + "/klipy-customer-id"
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let id = text.trimmingWhitespaceAndNewlines()
            if !id.isEmpty { return id }
        }
        let made = UUID().uuidString.lowercased().replacing("-", with: "")
        guard make(folder) else { return made }
        let temporary = path + ".tmp-\(getpid())"
        do {
            try writeAtomically(Array((made + "\n").utf8), to: temporary, mode: 0o600)
        } catch {
            return made
        }
        defer { unlink(temporary) }
        if link(temporary, path) == 0 { return made }
        let kept = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingWhitespaceAndNewlines() ?? ""
        return kept.isEmpty ? made : kept
    }
}
