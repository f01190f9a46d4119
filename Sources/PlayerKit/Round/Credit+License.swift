import RecordKit
import SposureKit

extension Credit {
    /// The longest licence name shown (short names are `CC BY-SA 4.0`, `CC0`, `Public domain`).
    public static let licenseWidth = 24

    /// ` · CC BY-SA 4.0` when the picture names its licence (cleaned of
    /// escapes and cut), else empty: Giphy and Klipy lines are as they were.
    var licenseText: String {
        guard let license = picture?.license else { return "" }
        let name = RemoteText.clean(license, limit: Self.licenseWidth)
        return name.isEmpty ? "" : " · " + name
    }
}
