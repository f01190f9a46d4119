import Glibc
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

/// A temporary file the kitty terminal reads pixels from (`t=t`): in the
/// temporary folder, with `tty-graphics-protocol` in its name as the
/// protocol asks, read and deleted by the terminal.
struct KittyFile {
    /// Its path.
    let path: String

    /// The path in base64, the command's payload.
    var base64: String { Base64.encode(Array(path.utf8)) }

    /// A new file holding `bytes` (0600, never through a link); nil when it cannot be written.
    static func write(_ bytes: [UInt8]) -> KittyFile? {
        var template = Array("/tmp/tty-graphics-protocol-sposure-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let path = String(cString: template)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            unlink(path)
            return nil
        }
        return KittyFile(path: path)
    }

    /// The 1×1 picture of the start-up query.
    static func probe() -> KittyFile? { write([0, 0, 0]) }

    /// Deletes it (the terminal usually has).
    func remove() { unlink(path) }
}
