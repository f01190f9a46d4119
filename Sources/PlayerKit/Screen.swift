import GIFEngine
import SposureKit

/// Everything drawn: the picture through the chosen renderer, the status line
/// on the last row, the prompt, the blank screen of a pause.
public final class Screen {
    /// The renderer in use, as named in the session event.
    public let rendererName: String
    private let terminal: Terminal?
    /// What draws the pictures (none when headless).
    private var renderer: (any Renderer)?
    private(set) var columns: Int
    private(set) var rows: Int
    private var lastStatus = ""
    /// The text last asked for, before cleaning (``lastStatus`` is empty when a clear wiped the line).
    private var lastStatusText = ""
    /// What waits to go out with the next frame (or the next ``flush()``).
    /// It starts with `?2026h`, which goes out only when a frame does (the
    /// whole write then in synchronized output).
    private var pending: [UInt8] = Screen.syncBegin
    /// Whether `pending` holds a frame.
    private var frameDrawn = false
    private static let syncBegin = Array("\u{1B}[?2026h".utf8), syncEnd = Array("\u{1B}[?2026l".utf8)
    /// Bytes written, for the benchmark.
    public private(set) var bytesWritten = 0
    /// Frames drawn.
    public private(set) var framesDrawn = 0

    /// What the pixel renderers know of the terminal (the largest sixel image).
    private let graphics: GraphicsOptions
    /// Bytes that go out before the next frame, outside synchronized output (kitty's pixels).
    private var uploads: [UInt8] = []
    /// Where in `pending` the last whole-screen clear (`CSI 2J`) ends, when
    /// one waits to go out: the uploads go after it, since kitty drops an
    /// image not yet placed when the screen is cleared (issue 29: the first
    /// GIF of a held round, uploaded before the prompt's clear, never showed).
    private var clearedUpTo: Int?
    /// Where in `pending` the first frame begins.
    private var firstFrameAt: Int?

    /// A screen on `terminal` (nil: headless) of `columns` × `rows` cells;
    /// the block renderers draw with `symbols`, the pixel ones know `graphics`.
    public init(terminal: Terminal?, renderer: PlayerConfiguration.Renderer, symbols: Symbols = .half, columns: Int, rows: Int,
                graphics: GraphicsOptions = GraphicsOptions()) {
        self.terminal = terminal
        self.columns = columns
        self.rows = rows
        self.graphics = graphics
        switch renderer {
        case .truecolor, .auto: self.renderer = BlockRenderer(truecolor: true, symbols: symbols)
        case .palette: self.renderer = BlockRenderer(truecolor: false, symbols: symbols)
        case .sixel: self.renderer = SixelRenderer(options: graphics)
        case .kitty: self.renderer = KittyRenderer(options: graphics)
        case .iterm: self.renderer = ITermRenderer()
        case .none: self.renderer = nil
        }
        rendererName = terminal == nil ? "none" : (renderer == .auto ? "truecolor" : renderer.rawValue)
        self.symbols = self.renderer is BlockRenderer ? symbols : nil
    }

    /// The characters the pictures are drawn with (nil: pixels, or headless).
    public let symbols: Symbols?

    /// The cell size pictures are fitted with.
    public var cell: CellSize { renderer?.cell(pixels: nil) ?? .halfBlock }

    /// The layout for pictures: every row but the status line (for sixel,
    /// no more than the largest image the terminal takes).
    public func layout(background: RGBColor, cellPixels: CellSize?) -> ScreenLayout {
        let cell = renderer?.cell(pixels: cellPixels) ?? .halfBlock
        renderer?.use(cell: cell)
        var (pictureColumns, pictureRows) = (columns, max(1, rows - 1))
        if renderer is SixelRenderer, let largest = graphics.sixelMaxSize {
            pictureColumns = min(pictureColumns, max(1, largest.width / cell.width))
            pictureRows = min(pictureRows, max(1, largest.height / cell.height))
        }
        return ScreenLayout(columns: pictureColumns, rows: pictureRows, cell: cell, background: background,
                            terminalScales: renderer?.scalesPictures ?? false, enlarge: renderer?.enlargesPictures ?? true)
    }

    /// A new size: clears and forgets what is on screen.
    public func resize(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        clear()
    }

    /// Clears the screen; the next frame is drawn whole.
    public func clear() {
        renderer?.screenCleared()
        lastStatus = ""
        write(Array("\u{1B}[0m\u{1B}[2J".utf8))
        clearedUpTo = pending.count
    }

    /// Erases the rows of the picture, not the status line below them (a
    /// GIF begins: the next frame is drawn whole, and the status line stays
    /// drawn instead of blanking until its text changes).
    public func clearPicture() {
        guard rows > 1 else { return clear() }
        renderer?.invalidate()
        // Erase from the top of the screen to the end of the last picture row.
        write(Array("\u{1B}[0m\u{1B}[\(rows - 1);\(columns)H\u{1B}[1J".utf8))
    }

    /// Counts what others wrote on the terminal (stderr's messages, when
    /// stderr is the same terminal): when it moves, the next frame is drawn
    /// whole, since the text covers cells and resets colours.
    public var otherWrites: (() -> Int)?
    private var otherWritesSeen = 0

    /// Draws one frame of `gif`.
    public func draw(_ gif: PreparedGIF, frame: Int) {
        guard let terminal, gif.hasFrame(frame) else { return }
        if let otherWrites, case let count = otherWrites(), count != otherWritesSeen {
            otherWritesSeen = count
            renderer?.invalidate()
        }
        framesDrawn += 1
        var picture = gif.picture(frame)
        picture.tag = FrameTag(gif: gif.identity, frame: frame)
        let before = pending.count
        renderer?.draw(picture, row: gif.origin.row, col: gif.origin.col, rawOutput: terminal.rawOutput, into: &pending)
        if let taken = renderer?.takeUploads(), !taken.isEmpty { uploads += taken }
        if pending.count > before {
            frameDrawn = true
            if firstFrameAt == nil { firstFrameAt = before }
        }
    }

    /// Writes what is pending: one frame, with the status line, in one write,
    /// all of it in synchronized output when a frame is in it (a clear
    /// before the frame, the status line after it), so the terminal shows
    /// it at once.
    public func flush() {
        defer {
            pending.removeAll(keepingCapacity: true)
            pending += Self.syncBegin
            frameDrawn = false
            uploads.removeAll(keepingCapacity: false)
            clearedUpTo = nil
            firstFrameAt = nil
        }
        guard let terminal, pending.count > Self.syncBegin.count else { return }
        var start = Self.syncBegin.count
        if !uploads.isEmpty, let cleared = clearedUpTo, cleared > start, cleared <= firstFrameAt ?? 0 {
            // The clear first, on its own: then the pixels, then the frame that places them.
            let sent = pending.withUnsafeBytes { terminal.writeWhileEntered(UnsafeRawBufferPointer(rebasing: $0[start..<cleared])) }
            if sent { bytesWritten += cleared - start }
            start = cleared
        }
        if !uploads.isEmpty {
            // Pixels to keep go first and on their own: inside synchronized
            // output they could overflow the terminal's buffer for it.
            let sent = uploads.withUnsafeBytes { terminal.writeWhileEntered($0) }
            if sent { bytesWritten += uploads.count } else { renderer?.screenCleared() }
        }
        if frameDrawn { pending += Self.syncEnd }
        let out = !frameDrawn ? pending[start...]
            : start == Self.syncBegin.count ? pending[0...] : ArraySlice(Self.syncBegin + pending[start...])
        let written = out.withUnsafeBytes { terminal.writeWhileEntered($0) }
        if written {
            bytesWritten += out.count
        } else {
            // Not drawn (stopped by Ctrl-Z): what is on screen is not known.
            renderer?.invalidate()
            lastStatus = ""
        }
    }

    /// Shows `text` centred (the prompt, a pause).
    public func message(_ text: String) {
        let clean = Self.plain(text)
        let row = max(1, rows / 2)
        let col = max(1, (columns - clean.count) / 2 + 1)
        write(Array("\u{1B}[0m\u{1B}[2J\u{1B}[\(row);\(col)H\(clean)".utf8))
        clearedUpTo = pending.count
        renderer?.screenCleared()
        lastStatus = ""
    }

    /// Clears the screen and shows `lines` where they are placed (the safety
    /// notice, a rating question and its cells).
    public func page(_ lines: [PageLine]) {
        var out = "\u{1B}[0m\u{1B}[2J"
        for line in lines {
            out += "\u{1B}[\(line.row);\(line.column)H" + (line.cell ? "\u{1B}[7m" : line.dim ? "\u{1B}[2m" : "")
                + Self.plain(line.text) + "\u{1B}[0m"
        }
        write(Array(out.utf8))
        clearedUpTo = pending.count
        renderer?.screenCleared()
        lastStatus = ""
    }

    /// Puts `text` on the last row when it changed.
    public func status(_ text: String) {
        // Asked for every frame: the same text, still on screen, costs a compare.
        guard text != lastStatusText || lastStatus.isEmpty else { return }
        lastStatusText = text
        let clean = String(Self.plain(text).prefix(max(0, columns - 1)))
        guard clean != lastStatus else { return }
        lastStatus = clean
        write(Array("\u{1B}[\(rows);1H\u{1B}[0m\u{1B}[2m\(clean)\u{1B}[0m\u{1B}[K".utf8))
        renderer?.forgetColors()
    }

    private func write(_ bytes: [UInt8]) {
        guard terminal != nil else { return }
        pending += bytes
    }

    /// `text` without escape sequences or control characters: remote titles
    /// and sections reach the screen only this way.
    public static func plain(_ text: String) -> String { RemoteText.strip(text) }
}
