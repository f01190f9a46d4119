import GIFEngine

/// What the pixel renderers need to know of the terminal, from the start-up
/// probe (``Capabilities/graphics()``).
public struct GraphicsOptions: Sendable, Equatable {
    /// kitty reads our files (`t=t`): frames go through a temporary file, not the pty.
    public var kittyFiles = false
    /// Inside tmux: kitty pictures are Unicode placeholders, every graphics
    /// command wrapped for tmux's passthrough.
    public var tmuxPlaceholders = false
    /// Colour registers a sixel image may use (2…256).
    public var sixelColors = 256
    /// The largest sixel image the terminal takes, when it says.
    public var sixelMaxSize: CellSize?

    /// Nothing known: direct transmission, 256 sixel colours.
    public init() {}
}
