/// How a frame's delay in the file becomes the time it is shown.
///
/// Browsers play delays of 0 and 1 centisecond at 100 ms, because old encoders
/// wrote 0 for "as fast as you can" and a page full of such GIFs would spin the
/// CPU. The default policy does the same; a `minimumMs` of 0 plays every delay
/// as written.
public struct DelayPolicy: Sendable, Equatable {
    /// Delays shorter than this, in milliseconds, play at ``replacementMs``. Default 20.
    public var minimumMs: Int
    /// The delay given to frames whose own is shorter than ``minimumMs``. Default 100.
    public var replacementMs: Int

    /// A policy with the given values (the browsers' by default).
    public init(minimumMs: Int = 20, replacementMs: Int = 100) {
        self.minimumMs = minimumMs
        self.replacementMs = replacementMs
    }

    /// The time, in milliseconds, a frame with `centiseconds` in the file is shown.
    public func milliseconds(forCentiseconds centiseconds: Int) -> Int {
        milliseconds(forMs: centiseconds * 10)
    }

    /// The time, in milliseconds, a frame whose file says `written` ms (a
    /// WebP's duration) is shown: browsers replace short ones alike.
    public func milliseconds(forMs written: Int) -> Int {
        written < minimumMs ? replacementMs : written
    }
}
