/// What a stage does with signals, given to ``Stage/signals`` before
/// ``Stage/start(trapSignals:reading:)`` installs the ``SignalTrap``.
///
/// The ending signals (SIGINT, SIGTERM, SIGHUP) stop the stage unless
/// ``onEnd`` says otherwise; a second one exits at once, after
/// ``beforeForcedExit``. Other signals a tool wants (SIGWINCH, SIGTSTP,
/// SIGCONT) go to ``onOther`` every time they come. Every handler runs on the
/// trap thread, where locking and waking threads is safe.
public struct SignalPolicy: Sendable {
    /// Signals besides the ending ones, handed to ``onOther`` each time.
    public var other: [Int32]
    /// Takes each of ``other``.
    public var onOther: (@Sendable (Int32) -> Void)?
    /// Takes the first ending signal instead of the stage stopping with it
    /// (`score` gives the player upstream a moment to finish its round first).
    public var onEnd: (@Sendable (Int32) -> Void)?
    /// Gives back what must not be left behind (a terminal in raw mode) before
    /// a second ending signal exits at once.
    public var beforeForcedExit: (@Sendable () -> Void)?

    /// A policy; with no arguments, the standard one: the first ending signal
    /// stops the stage, a second exits.
    public init(other: [Int32] = [], onOther: (@Sendable (Int32) -> Void)? = nil,
                onEnd: (@Sendable (Int32) -> Void)? = nil, beforeForcedExit: (@Sendable () -> Void)? = nil) {
        self.other = other
        self.onOther = onOther
        self.onEnd = onEnd
        self.beforeForcedExit = beforeForcedExit
    }
}
