/// A key that means something to the round (the terminal shell reads them).
public enum RoundKey: Sendable, Equatable {
    /// q, Q or Esc: the round ends, `quit`.
    case quit
    /// Ctrl-C read as a key (kitty protocol): the round ends as SIGINT ends it.
    case interrupt
    /// A digit, 0 calm … 9 worst: rates the GIF on screen (a `rated` event)
    /// without ending the hold (issue 15).
    case rate(Int)
    /// x: the GIF on screen is off-topic (an `off_topic` event); it ends
    /// at once and the next one plays.
    case offTopic
}
