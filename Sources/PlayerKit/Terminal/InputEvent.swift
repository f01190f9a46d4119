/// What the person did, as read from the terminal.
public enum InputEvent: Equatable, Sendable {
    /// A mouse button (0 left, 1 middle, 2 right) pressed or released at a cell (1-based).
    case mouse(button: Int, x: Int, y: Int, pressed: Bool)
    /// A key: its Unicode code point (32 for space, 27 for Esc, 3 for Ctrl-C, 26 for Ctrl-Z,
    /// 113 for q), with the kind of event when the terminal says (kitty protocol).
    case key(code: UInt32, kind: KeyEventKind)
    /// The terminal window gained (true) or lost focus.
    case focus(Bool)
    /// The reply to `CSI c`: the terminal's attributes (4 means sixel).
    case deviceAttributes([Int])
    /// The reply to `CSI ? u`: the kitty keyboard flags in force.
    case kittyKeyboard(flags: Int)
    /// The reply to a kitty graphics query `i=id`: supported when true.
    case kittyGraphics(id: Int, ok: Bool)
    /// The reply to XTVERSION (`CSI > 0 q`): the terminal's name and version ("kitty(0.39.1)").
    case terminalName(String)
    /// The reply to XTSMGRAPHICS (`CSI ? item ; status ; values S`): item 1
    /// is the colour registers, 2 the largest sixel image; status 0 is success.
    case graphicsAttribute(item: Int, status: Int, values: [Int])
    /// The reply to `CSI 16 t`: one cell's size in pixels.
    case cellPixels(width: Int, height: Int)
    /// The reply to `CSI 14 t`: the text area's size in pixels.
    case windowPixels(width: Int, height: Int)
    /// The reply to DECRQSS (`DCS $ q … ST`): the setting as the terminal
    /// holds it (`0;38:2::1:2:3m`), nil when it says the request is invalid.
    case statusString(String?)
    /// The reply to XTGETTCAP (`DCS + q hex ST`): the capability's name and
    /// value (empty for a flag), the value nil when the terminal does not know it.
    case termcap(name: String, value: String?)
}

/// The keys every screen of the player reads alike: q, Q and Esc stop,
/// Ctrl-C (a key under the kitty protocol) interrupts, Ctrl-Z suspends as
/// the terminal would. (The questions read Esc as "skip this one".)
enum StopKey: Equatable {
    /// q, Q, Esc.
    case quit
    /// Ctrl-C.
    case interrupt
    /// Ctrl-Z.
    case suspend

    /// The meaning of key `code`; nil for any other key.
    init?(code: UInt32) {
        switch code {
        case 113, 81, 27: self = .quit
        case 3: self = .interrupt
        case 26: self = .suspend
        default: return nil
        }
    }
}
