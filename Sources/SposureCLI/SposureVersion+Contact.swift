import FoundationEssentials
import SposureKit

extension SposureVersion {
    /// Where the makers of Sposure are reached, for the User-Agent every API
    /// call sends (Wikimedia's policy asks every client for a contact):
    /// `SPOSURE_CONTACT` (a URL or an e-mail address, for a fork or a
    /// packager), else ``projectURL``.
    public static var contact: String {
        let given = ProcessInfo.processInfo.environment["SPOSURE_CONTACT"]?.trimmingWhitespaceAndNewlines() ?? ""
        let fits = !given.isEmpty && given.count <= 200 && !given.contains { $0 == "(" || $0 == ")" || $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true }
        return fits ? given : projectURL
    }

    /// The project's home.
    public static let projectURL = "https://github.com/sposure/sposure"
}
