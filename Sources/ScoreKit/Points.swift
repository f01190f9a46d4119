/// The points of a round: exposure counts most, GIFs watched to their end add.
///
///     points = exposed_ms / 100  +  5 × gifs_completed
///
/// That is 10 points for every second the person watched (counted in whole
/// tenths), and 5 more for each GIF seen to its end, so a typical 2–3 s GIF
/// earns 20–30 points for its exposure and 5 for finishing it. Stalls (the
/// player waiting for a GIF to load) are not the player's fault: the time is
/// not exposure, and nothing is taken off. Errors and bad lines cost nothing.
public enum Points {
    /// Points per second of exposure.
    public static let perSecond = 10
    /// Points for each GIF watched to its end.
    public static let perCompletedGIF = 5

    /// The points for `exposedMs` of exposure and `gifsCompleted` GIFs watched to the end.
    public static func points(exposedMs: Int, gifsCompleted: Int) -> Int {
        max(0, exposedMs) / (1000 / perSecond) + perCompletedGIF * max(0, gifsCompleted)
    }
}
