/// What the status line says: exposure so far, GIFs seen, the section of
/// the one on screen, whether the round waits for one to load, and the
/// credit its provider asks for.
public struct RoundStatus: Sendable, Equatable {
    /// Exposure so far, in ms.
    public var exposedMs: Int
    /// The GIFs played and the one on screen.
    public var gifsSeen: Int
    /// The section of the GIF on screen (empty: none).
    public var section: String
    /// Held with nothing ready to show.
    public var loading: Bool
    /// Loading with the gif buffer empty and more GIFs to come (not a frame still decoding).
    public var waitingForMore: Bool
    /// The credit of the GIF on screen (nil: none on screen, or from no API).
    public var credit: Credit?

    /// A status line.
    public init(exposedMs: Int, gifsSeen: Int, section: String, loading: Bool, waitingForMore: Bool = false, credit: Credit? = nil) {
        self.exposedMs = exposedMs
        self.gifsSeen = gifsSeen
        self.section = section
        self.loading = loading
        self.waitingForMore = waitingForMore
        self.credit = credit
    }

    /// The line as shown: `exposure 12s · 3 GIFs · spiders · loading more… · Powered by GIPHY · by NAME`.
    /// Words, not a stopwatch glyph: ⏱ is an empty box in DejaVu Sans Mono
    /// and other common monospace fonts (issue 29 #9).
    public var text: String {
        var parts = ["exposure \(exposedMs / 1000)s", "\(gifsSeen) GIF\(gifsSeen == 1 ? "" : "s")"]
        if !section.isEmpty { parts.append(section) }
        if loading { parts.append(waitingForMore ? "loading more…" : "loading…") }
        if let credit { parts.append(credit.text) }
        return parts.joined(separator: " · ")
    }
}
