import LadderKit
import SposureKit

/// What a result says of itself beyond its pictures: the text an avoid list
/// is matched against (title, slug, tags, the creator's names), and the
/// creator to credit, as each API gives them (``GIFAPI/text(of:)``).
public struct ResultText: Sendable, Equatable {
    /// The title, as the API wrote it.
    public var title: String
    /// The words of its page's address (`spider-man-swings`), the id taken off; nil when none.
    public var slug: String?
    /// Its tags, when the API gives them.
    public var tags: [String]
    /// Every name of its creator the API gives (a username, a display name).
    public var creatorNames: [String]
    /// The creator as credited on screen (the display name, else the
    /// username), cleaned of escapes like the title; nil when none is given.
    public var creator: String?

    /// The longest creator name kept.
    public static let creatorLength = 80
    /// The most tags read of a result.
    public static let maxTags = 100

    /// A result's text; each part past ``AvoidList/maxTextLength`` characters
    /// is cut, so a megabyte of title costs what a kilobyte does.
    public init(title: String, slug: String? = nil, tags: [String] = [], creatorNames: [String] = []) {
        func cut(_ text: String) -> String { String(text.prefix(AvoidList.maxTextLength)) }
        self.title = cut(title)
        self.slug = slug.map(cut)
        self.tags = tags.prefix(Self.maxTags).map(cut)
        self.creatorNames = creatorNames.filter { !$0.trimmingWhitespace().isEmpty }.map(cut)
        creator = self.creatorNames.first.map { String(RemoteText.strip($0).prefix(Self.creatorLength)) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Everything an avoid list is matched against.
    public var all: [String] { [title] + (slug.map { [$0] } ?? []) + tags + creatorNames }

    /// `slug` without the `-ID` an address ends with (Giphy's do), nil when nothing else is left.
    public static func slug(_ slug: String?, id: String?) -> String? {
        guard var slug, !slug.isEmpty else { return nil }
        if let id, !id.isEmpty {
            if slug == id { return nil }
            if slug.hasSuffix("-" + id) { slug.removeLast(id.count + 1) }
        }
        return slug.isEmpty ? nil : slug
    }
}

extension GIFAPI {
    /// Its title alone, for an API that says nothing else of a result.
    public func text(of item: JSONRecord) -> ResultText {
        ResultText(title: item.string("title") ?? "")
    }
}
