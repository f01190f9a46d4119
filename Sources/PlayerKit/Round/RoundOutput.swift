import RecordKit
/// What the round hands out, in order: events and lines for stdout, and
/// what to draw. The terminal shell (``Player``) writes and draws them; tests
/// collect them.
public enum RoundOutput<GIF: RoundGIF> {
    /// An event to write.
    case event(RoundEvent)
    /// Input lines to write as they are, in their place among the events.
    case lines([[UInt8]])
    /// Clear the screen: a pause or the prompt ends.
    case clear
    /// Erase the picture but not the status line: a GIF begins.
    case clearPicture
    /// Draw frame `frame` of `gif`.
    case draw(GIF, frame: Int)
    /// Send what is drawn (a virtual clock sends every frame).
    case flush
    /// The status line, when it may have changed.
    case status(RoundStatus)
    /// The prompt before the first hold.
    case prompt
    /// The blank screen of a pause (`--on-release pause`).
    case paused
}
