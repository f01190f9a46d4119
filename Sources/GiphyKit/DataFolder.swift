import FoundationEssentials
import Glibc
import SposureKit

/// What GiphyKit keeps in the data folder (``Folders/data(environment:)``)
/// besides the call budget: Klipy's customer id.
public enum DataFolder {
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
        guard (try? Folders.make(folder)) != nil else { return made }
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
