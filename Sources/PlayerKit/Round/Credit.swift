import RecordKit
import SposureKit

/// What a provider's terms ask to be shown while its GIF is on screen:
/// "Powered by GIPHY" (or KLIPY), and the creator when the API names one.
///
///     Powered by GIPHY · by Ohio State Athletics
public struct Credit: Sendable, Equatable {
    /// The API's name, as records write it (`giphy`, `klipy`).
    public var provider: String
    /// Who made the GIF, as the record says (remote text: shown through ``Screen/plain(_:)``).
    public var creator: String?
    /// The author, licence and page a licence asks to credit (a Commons
    /// picture's; nil for Giphy and Klipy), for the `shown` event and the status line.
    public var picture: PictureCredit?

    /// The longest creator name shown (the status line shares a row with the rest).
    public static let creatorWidth = 40

    /// A credit to `provider`, and to `creator` when given.
    public init(provider: String, creator: String? = nil) {
        self.provider = provider
        self.creator = creator
    }

    /// The mark each API the program knows asks for, in its own spelling.
    public static let marks = ["giphy": "Powered by GIPHY", "klipy": "Powered by KLIPY", "commons": "Wikimedia Commons"]

    /// The credit a record asks for: its `provider`, else the provider its
    /// `cache_key` names (a Giphy record from `list` names none); nil for a
    /// GIF from no API (the demo's, a folder of one's own: `provider` `local`)
    /// and for a provider the program does not know: a record is remote text,
    /// and "Powered by <anything>" would let it write on the status line.
    public init?(record: JSONRecord) {
        let named = record.string(ImageRecord.Field.provider)
            ?? record.string(ImageRecord.Field.cacheKey).flatMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
        guard let provider = named, Self.marks[provider] != nil else { return nil }
        self.init(provider: provider, creator: record.string(ImageRecord.Field.creator))
        picture = PictureCredit(record: record)
    }

    /// The mark the provider asks for, in its own spelling.
    public var mark: String {
        Self.marks[provider] ?? ""
    }

    /// `Powered by GIPHY · by NAME`: the creator cleaned of escapes and cut to ``creatorWidth``.
    public var text: String {
        let license = licenseText
        guard let creator else { return mark + license }
        let name = Screen.plain(creator)
        guard !name.isEmpty else { return mark + license }
        return mark + " · by " + (name.count > Self.creatorWidth ? String(name.prefix(Self.creatorWidth - 1)) + "…" : name) + license
    }
}
