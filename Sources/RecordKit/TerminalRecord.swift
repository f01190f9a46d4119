import SposureKit

/// The `terminal` record: what `gif-play probe` found the terminal can do,
/// and the renderer and input a round would use there. `sposure doctor`
/// reads it back.
///
/// ```json
/// {"kind":"terminal","tty":"/dev/tty","term":"xterm-kitty",…,"renderer":"kitty","why":"…","symbols":"pixels","mouse":"…","key_release":true,"keys":"…"}
/// ```
///
/// Written in this order, every field present (null when unknown) but `tmux`,
/// which is there only inside tmux.
public struct TerminalRecord: Sendable, Equatable {
    /// The record's `kind`.
    public static let kind = "terminal"

    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let kind = "kind", tty = "tty", term = "term", termProgram = "term_program", colorterm = "colorterm"
        public static let name = "name", answered = "answered", cols = "cols", rows = "rows", pixelWidth = "pixel_width"
        public static let pixelHeight = "pixel_height", cellPixels = "cell_pixels", kittyKeyboard = "kitty_keyboard"
        public static let kittyGraphics = "kitty_graphics", kittyFiles = "kitty_files", sixel = "sixel", sixelColors = "sixel_colors"
        public static let sixelMax = "sixel_max", windowPixels = "window_pixels", directColor = "direct_color"
        public static let termcapRGB = "termcap_rgb", outerName = "outer_name", waitedLongerMs = "waited_longer_ms", tmux = "tmux"
        public static let renderer = "renderer", why = "why", advice = "advice", symbols = "symbols", mouse = "mouse"
        public static let keyRelease = "key_release", keys = "keys"
        /// The fields of `tmux`.
        public static let version = "version", outerTerm = "outer_term", outerType = "outer_type", passthrough = "passthrough"
        public static let features = "features"
    }

    /// The terminal asked (the `/dev/tty` path).
    public var tty = "/dev/tty"
    /// `TERM`, `TERM_PROGRAM`, `COLORTERM` as set.
    public var term: String?, termProgram: String?, colorterm: String?
    /// The terminal's name and version (XTVERSION), when it said.
    public var name: String?
    /// Whether it answered any probe.
    public var answered = false
    /// The screen in cells and pixels, when known.
    public var cols: Int?, rows: Int?, pixelWidth: Int?, pixelHeight: Int?
    /// One cell's pixels, `WxH`.
    public var cellPixels: String?
    /// What it answered yes to.
    public var kittyKeyboard = false, kittyGraphics = false, kittyFiles = false, sixel = false
    /// Sixel's colour registers and largest picture (`WxH`).
    public var sixelColors: Int?, sixelMax: String?
    /// The window's pixels, `WxH`.
    public var windowPixels: String?
    /// Whether 24-bit colour read back, and terminfo's `RGB`.
    public var directColor: Bool?, termcapRGB: Bool?
    /// The terminal outside tmux, as tmux names it.
    public var outerName: String?
    /// How much longer than the first wait the answers took, in ms.
    public var waitedLongerMs = 0
    /// tmux's own answers, inside tmux.
    public var tmux: Tmux?
    /// The renderer a round would use, why, and what would give pixels.
    public var renderer = "?", why = "", advice: String?
    /// What it draws with.
    public var symbols = ""
    /// How a hold is read from the mouse and from keys.
    public var mouse = "", keyRelease = false, keys = ""

    /// What tmux says of itself and of the terminal around it.
    public struct Tmux: Sendable, Equatable {
        public var version: String, outerTerm: String, outerType: String
        public var passthrough: Bool
        /// Its client's features, comma-separated.
        public var features: String

        /// tmux's answers.
        public init(version: String, outerTerm: String, outerType: String, passthrough: Bool, features: String) {
            self.version = version
            self.outerTerm = outerTerm
            self.outerType = outerType
            self.passthrough = passthrough
            self.features = features
        }
    }

    /// A record with nothing known yet.
    public init() {}

    /// Reads a `terminal` record; a field missing (or of another type)
    /// reads as unknown: no, empty, `?` for the renderer.
    public init(record: JSONRecord) {
        tty = record.string(Field.tty) ?? tty
        term = record.string(Field.term)
        termProgram = record.string(Field.termProgram)
        colorterm = record.string(Field.colorterm)
        name = record.string(Field.name)
        answered = record.bool(Field.answered) ?? false
        (cols, rows) = (record.int(Field.cols), record.int(Field.rows))
        (pixelWidth, pixelHeight) = (record.int(Field.pixelWidth), record.int(Field.pixelHeight))
        cellPixels = record.string(Field.cellPixels)
        kittyKeyboard = record.bool(Field.kittyKeyboard) ?? false
        kittyGraphics = record.bool(Field.kittyGraphics) ?? false
        kittyFiles = record.bool(Field.kittyFiles) ?? false
        sixel = record.bool(Field.sixel) ?? false
        (sixelColors, sixelMax) = (record.int(Field.sixelColors), record.string(Field.sixelMax))
        windowPixels = record.string(Field.windowPixels)
        (directColor, termcapRGB) = (record.bool(Field.directColor), record.bool(Field.termcapRGB))
        outerName = record.string(Field.outerName)
        waitedLongerMs = record.int(Field.waitedLongerMs) ?? 0
        if let object = record.object(Field.tmux) {
            tmux = Tmux(version: object.string(Field.version) ?? "", outerTerm: object.string(Field.outerTerm) ?? "",
                        outerType: object.string(Field.outerType) ?? "", passthrough: object.bool(Field.passthrough) ?? false,
                        features: object.string(Field.features) ?? "")
        }
        renderer = record.string(Field.renderer) ?? renderer
        why = record.string(Field.why) ?? ""
        advice = record.string(Field.advice)
        symbols = record.string(Field.symbols) ?? ""
        mouse = record.string(Field.mouse) ?? ""
        keyRelease = record.bool(Field.keyRelease) ?? false
        keys = record.string(Field.keys) ?? ""
    }

    /// The record.
    public func record() -> JSONRecord {
        let record = JSONRecord()
        record.set([(Field.kind, Self.kind), (Field.tty, tty), (Field.term, term), (Field.termProgram, termProgram),
                    (Field.colorterm, colorterm), (Field.name, name), (Field.answered, answered), (Field.cols, cols),
                    (Field.rows, rows), (Field.pixelWidth, pixelWidth), (Field.pixelHeight, pixelHeight),
                    (Field.cellPixels, cellPixels), (Field.kittyKeyboard, kittyKeyboard), (Field.kittyGraphics, kittyGraphics),
                    (Field.kittyFiles, kittyFiles), (Field.sixel, sixel), (Field.sixelColors, sixelColors),
                    (Field.sixelMax, sixelMax), (Field.windowPixels, windowPixels), (Field.directColor, directColor),
                    (Field.termcapRGB, termcapRGB), (Field.outerName, outerName), (Field.waitedLongerMs, waitedLongerMs)])
        if let tmux {
            record.setObject(Field.tmux).set([(Field.version, tmux.version), (Field.outerTerm, tmux.outerTerm),
                                              (Field.outerType, tmux.outerType), (Field.passthrough, tmux.passthrough),
                                              (Field.features, tmux.features)])
        }
        record.set([(Field.renderer, renderer), (Field.why, why), (Field.advice, advice), (Field.symbols, symbols),
                    (Field.mouse, mouse), (Field.keyRelease, keyRelease), (Field.keys, keys)])
        return record
    }
}
