/// Where the round takes its GIFs from, in input order, with the lines
/// (records passed through, error records) that come before each.
///
/// ``PreloaderFeed`` takes them from the gif buffer; tests hand them over
/// themselves. A feed hands lines to the closure it is given, in order, so
/// the round writes them in their place among its events.
public protocol RoundFeed: AnyObject {
    /// The GIFs it gives.
    associatedtype GIF: RoundGIF

    /// The next GIF and the moment it is available from (0: at once), after
    /// handing every line before it to `lines`. Nil when none is ready now,
    /// or the input has ended (``isFinished``).
    func nextGIF(lines: ([[UInt8]]) -> Void) -> (gif: GIF, availableAt: Int)?

    /// Whether the input has ended and every GIF of it was taken.
    var isFinished: Bool { get }

    /// At the round's end: hands over the lines before the next GIF (errors
    /// about the images after the last one shown), and drops that GIF.
    func linesBeforeNextGIF(lines: ([[UInt8]]) -> Void)
}
