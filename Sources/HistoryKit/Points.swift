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

    /// Points for each press after letting go, in a ladder round.
    public static let perReturn = 25

    /// The points of a ladder round: courage, not calm.
    ///
    ///     points = exposed_ms / 100 × (50 + rung_suds) / 50  +  25 × (holds − 1)
    ///
    /// Exposure weighs more on harder rungs (×1 at SUDS 0, ×2 at 50, ×3 at 100),
    /// each press after letting go earns 25, and letting go takes nothing away.
    /// Distress does not count: a frightening round is worth as much as a calm one.
    public static func ladderPoints(exposedMs: Int, rungSuds: Int, holds: Int) -> Int {
        let tenths = max(0, exposedMs) / (1000 / perSecond)
        return tenths * (50 + min(100, max(0, rungSuds))) / 50 + perReturn * max(0, holds - 1)
    }

    /// The points for `exposedMs` of exposure and `gifsCompleted` GIFs watched to the end.
    public static func points(exposedMs: Int, gifsCompleted: Int) -> Int {
        max(0, exposedMs) / (1000 / perSecond) + perCompletedGIF * max(0, gifsCompleted)
    }
}
