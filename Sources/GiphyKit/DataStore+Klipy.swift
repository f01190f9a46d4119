import FoundationEssentials
import Glibc
import SposureKit

extension DataStore {
    /// Klipy's `customer_id`: a random id made once and kept in the data
    /// folder (``klipyCustomerID``), never anything about the person. Two
    /// processes making it at once agree: the first file linked into place wins.
    public func klipyCustomer() -> String {
        let folder = root
        let path = klipyCustomerID
        let id = kept(path)
        if !id.isEmpty { return id }
        let made = UUID().uuidString.lowercased().replacing("-", with: "")
        guard (try? Folders.make(folder)) != nil else { return made }
        let temporary = path + ".tmp-\(getpid())"
        do {
            try writeAtomically(Array((made + "\n").utf8), to: temporary, as: .program, mode: 0o600)
        } catch {
            return made
        }
        defer { unlink(temporary) }
        if link(temporary, path) == 0 { return made }
        let winner = kept(path)
        if !winner.isEmpty { return winner }
        // Something that is no id is there (a link, an empty or damaged
        // file): replaced, a link itself and never the file it names.
        try? writeAtomically(Array((made + "\n").utf8), to: path, as: .program, mode: 0o600)
        return made
    }

    /// The id kept at `path`; empty when there is none (or not a small regular file).
    private func kept(_ path: String) -> String {
        guard let bytes = try? readFile(path, maxBytes: 256, owner: .program) else { return "" }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespaceAndNewlines()
    }
}
