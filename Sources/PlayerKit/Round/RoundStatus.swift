/// What the status line says: exposure so far, GIFs seen, the section of
/// the one on screen, and whether the round waits for one to load.
public struct RoundStatus: Sendable, Equatable {
    /// Exposure so far, in ms.
    public var exposedMs: Int
    /// The GIFs played and the one on screen.
    public var gifsSeen: Int
    /// The section of the GIF on screen (empty: none).
    public var section: String
    /// Held with nothing ready to show.
    public var loading: Bool

    /// A status line.
    public init(exposedMs: Int, gifsSeen: Int, section: String, loading: Bool) {
        self.exposedMs = exposedMs
        self.gifsSeen = gifsSeen
        self.section = section
        self.loading = loading
    }

    /// The line as shown: `⏱ 12s · 3 GIFs · spiders · loading…`.
    public var text: String {
        var parts = ["⏱ \(exposedMs / 1000)s", "\(gifsSeen) GIF\(gifsSeen == 1 ? "" : "s")"]
        if !section.isEmpty { parts.append(section) }
        if loading { parts.append("loading…") }
        return parts.joined(separator: " · ")
    }
}
