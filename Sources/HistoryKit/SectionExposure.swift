/// The exposure one section (carousel, query) of a round earned.
public struct SectionExposure: Sendable, Equatable {
    /// The section's name, as the stream gave it (remote text).
    public var name: String
    /// Its exposure.
    public var exposedMs = 0
    /// Its GIFs put on screen.
    public var gifsShown = 0
    /// Its GIFs played to their end.
    public var gifsCompleted = 0

    /// A section with no exposure yet.
    public init(name: String, exposedMs: Int = 0, gifsShown: Int = 0, gifsCompleted: Int = 0) {
        self.name = name
        self.exposedMs = exposedMs
        self.gifsShown = gifsShown
        self.gifsCompleted = gifsCompleted
    }
}
