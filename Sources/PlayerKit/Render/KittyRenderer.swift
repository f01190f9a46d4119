import Glibc

/// Draws pictures with the kitty graphics protocol, each frame sent once.
///
/// A GIF becomes one image in the terminal; its first frame drawn is the
/// image's root frame, and each later frame is an animation frame (`a=f`)
/// made from the last one sent plus the rectangle that changed, its
/// unchanged pixels transparent, compressed (`o=z`). Showing a frame is then
/// a frame switch (`a=a,c=N`): a later loop of the GIF costs a few dozen
/// bytes a frame. The terminal scales the GIF's own pixels to the cells it
/// covers (``CellPicture/span``). When the terminal reads our files
/// (``GraphicsOptions/kittyFiles``), pixels go through a temporary file
/// (`t=t`) instead of the pty, at most ``KittyFiles/limit`` unread at a time
/// (then the pty again), none left when the process ends.
///
/// Inside tmux (``GraphicsOptions/tmuxPlaceholders``) the picture is a
/// virtual placement drawn by Unicode placeholders (U+10EEEE with row and
/// column diacritics, the image id in the foreground colour), which tmux
/// keeps as text and redraws itself; the graphics commands go through
/// tmux's passthrough.
///
/// A GIF shown again costs only a placement: the images of the GIFs before
/// stay in the terminal (their placements deleted, `a=d,d=i`) while all of
/// them together hold at most ``frameBudget`` bytes of frames, as the
/// terminal keeps them (4 bytes a pixel). Past it the earlier ones are freed
/// (`a=d,d=I`), after the new picture is placed: kitty frees every image
/// without a placement along with the one named. One GIF alone past the
/// budget starts its image again from the frame on screen. A cleared screen
/// (`CSI 2J`) frees every image without a placement in view, so after one
/// every picture is sent again.
public struct KittyRenderer: Sendable {
    /// What the terminal allows.
    public let options: GraphicsOptions
    /// The frames (4 bytes a pixel, as the terminal keeps them) this player
    /// keeps in the terminal at most, over all its images: 64 MiB.
    public static let frameBudget = 64 << 20

    private var image: Image?
    /// The images of earlier GIFs still in the terminal, unplaced, oldest first.
    private var kept: [Image] = []
    private var toFree: [UInt32] = []
    private var nextID: UInt32
    private var uploads: [UInt8] = []

    /// One GIF in the terminal.
    private struct Image {
        var id: UInt32
        var gif: UInt64?
        var width: Int, height: Int
        /// The kitty frame number of each GIF frame sent.
        var frames: [Int: Int] = [:]
        var count = 0
        /// The last frame sent: the base of the next.
        var last: (number: Int, rgb: [UInt8])
        /// Where it is placed (row, column, span), nil before it is.
        var placed: [Int]?
        /// The frame shown.
        var shown = 0

        /// The bytes the terminal keeps for its frames.
        var bytes: Int { count * width * height * 4 }
    }

    /// A renderer for a terminal with `options`.
    public init(options: GraphicsOptions = GraphicsOptions()) {
        self.options = options
        // Ids of their own per process, in 24 bits (a placeholder's colour carries the id).
        nextID = UInt32(truncatingIfNeeded: getpid() & 0x7FF) << 12 | 1
    }

    /// Forgets what is on screen: the picture is placed again at the next
    /// draw (a partial erase leaves the images and their placements).
    public mutating func invalidate() {
        image?.placed = nil
        image?.shown = 0
    }

    /// The screen was cleared (`CSI 2J`): kitty removes the placements in
    /// view and frees every image left without one, ours included (its
    /// `grman_clear` frees images whatever their client id), so every
    /// picture is sent again (issue 29: a GIF uploaded before the clear, or
    /// shown again after a pause, stayed black).
    public mutating func screenCleared() {
        image = nil
        kept = []
        toFree = []
    }

    /// Takes the bytes that send pixels, to go out before the frame and
    /// outside synchronized output (they would overflow its buffer).
    public mutating func takeUploads() -> [UInt8] {
        defer { uploads = [] }
        return uploads
    }

    /// Appends the bytes that show `picture` with its top-left cell at (`row`, `col`).
    public mutating func render(_ picture: CellPicture, row: Int, col: Int, into target: inout [UInt8]) {
        var out: [UInt8] = []
        let frameIndex = picture.tag?.frame ?? 0
        if var current = image, let tag = picture.tag, current.gif == tag.gif,
           current.width == picture.width, current.height == picture.height {
            if current.frames[frameIndex] == nil { add(frameIndex, of: picture, to: &current) }
            image = current
        } else {
            if var old = image {
                command(&out, "a=d,d=i,i=\(old.id),q=2")  // its placement; the image stays
                old.placed = nil
                old.shown = 0
                kept.append(old)
            }
            if let tag = picture.tag,
               let index = kept.firstIndex(where: { $0.gif == tag.gif && $0.width == picture.width && $0.height == picture.height }) {
                var again = kept.remove(at: index)
                if again.frames[frameIndex] == nil { add(frameIndex, of: picture, to: &again) }
                image = again
            } else {
                image = start(picture, frame: frameIndex)
            }
            if kept.reduce(image?.bytes ?? 0, { $0 + $1.bytes }) > Self.frameBudget { freeKept() }
        }
        guard var current = image, let number = current.frames[frameIndex] else { return }
        let span = picture.span ?? CellSpan(columns: 0, rows: 0)
        let place = [row, col, span.columns, span.rows]
        if current.placed != place {
            if current.shown != number { command(&out, "a=a,i=\(current.id),c=\(number),s=1,q=2") }
            self.place(current.id, span: picture.span, row: row, col: col, into: &out)
            current.placed = place
        } else if current.shown != number {
            command(&out, "a=a,i=\(current.id),c=\(number),q=2")
        }
        current.shown = number
        image = current
        // Freed after the new picture is placed: kitty frees every image
        // without a placement along with the one named.
        for id in toFree { command(&out, "a=d,d=I,i=\(id),q=2") }
        toFree = []
        target += out
    }

    /// Frees every earlier image (once the picture on screen is placed): kitty
    /// frees all unplaced images at the first `d=I` anyway.
    private mutating func freeKept() {
        toFree += kept.map(\.id)
        kept = []
    }

    /// A new image whose root frame is `picture`.
    private mutating func start(_ picture: CellPicture, frame: Int) -> Image {
        let id = nextID
        nextID = nextID >= 0xFF_FFFF ? 1 : nextID + 1
        let keys = "a=t,f=24,i=\(id),s=\(picture.width),v=\(picture.height),q=2"
        picture.rgb.withUnsafeBytes { send(keys, pixels: $0) }
        var image = Image(id: id, gif: picture.tag?.gif, width: picture.width, height: picture.height,
                          last: (1, picture.rgb))
        image.frames[frame] = 1
        image.count = 1
        return image
    }

    /// Sends frame `index` as an animation frame on the last one sent: the
    /// rectangle that changed, unchanged pixels transparent; nothing when
    /// nothing changed (the frame is the last one again).
    private mutating func add(_ index: Int, of picture: CellPicture, to image: inout Image) {
        guard let box = Self.changed(image.last.rgb, picture.rgb, width: picture.width, height: picture.height) else {
            image.frames[index] = image.last.number
            return
        }
        if (image.count + 1) * picture.width * picture.height * 4 > Self.frameBudget {
            // The terminal keeps every frame whole: past the budget, start again.
            toFree.append(image.id)
            freeKept()
            image = start(picture, frame: index)
            image.placed = nil
            return
        }
        let width = picture.width
        var rgba = [UInt8](repeating: 0, count: box.width * box.height * 4)
        picture.rgb.withUnsafeBufferPointer { now in
            image.last.rgb.withUnsafeBufferPointer { before in
                for y in 0..<box.height {
                    for x in 0..<box.width {
                        let source = ((box.y + y) * width + box.x + x) * 3, target = (y * box.width + x) * 4
                        if now[source] == before[source] && now[source + 1] == before[source + 1] && now[source + 2] == before[source + 2] {
                            continue  // transparent: the base frame shows through
                        }
                        rgba[target] = now[source]
                        rgba[target + 1] = now[source + 1]
                        rgba[target + 2] = now[source + 2]
                        rgba[target + 3] = 255
                    }
                }
            }
        }
        let number = image.count + 1
        sendFrame(rgba, box: box, number: number, base: image.last.number, id: image.id)
        image.count = number
        image.frames[index] = number
        image.last = (number, picture.rgb)
    }

    /// Sends the pixels of a new frame in bands small enough that each
    /// command is one escape code of at most 4096 bytes of base64 (kitty
    /// 0.26 mistakes the chunks of a frame for edits of frame 2): the first
    /// band makes the frame on the base, the others are drawn onto it (`r=`).
    private mutating func sendFrame(_ rgba: [UInt8], box: (x: Int, y: Int, width: Int, height: Int), number: Int, base: Int, id: UInt32) {
        let whole = "a=f,f=32,i=\(id),c=\(base),x=\(box.x),y=\(box.y),s=\(box.width),v=\(box.height),o=z,q=2"
        if options.kittyFiles, let file = KittyFile.write(Deflate.zlib(rgba, level: 6)) {
            // A file has no size limit: the whole frame in one command.
            command(&uploads, whole + ",t=t", payload: Array(file.base64.utf8))
            return
        }
        let rowBytes = box.width * 4
        var top = 0
        var rows = max(1, min(box.height, 12_000 / max(1, rowBytes)))
        while top < box.height {
            rows = min(rows, box.height - top)
            let compressed = rgba.withUnsafeBytes { Deflate.zlib(UnsafeRawBufferPointer(rebasing: $0[(top * rowBytes)..<((top + rows) * rowBytes)]), level: 6) }
            if (compressed.count + 2) / 3 * 4 > 4096 && rows > 1 {
                rows = max(1, rows / 2)
                continue
            }
            let frame = top == 0 ? "c=\(base)" : "r=\(number)"
            let keys = "a=f,f=32,i=\(id),\(frame),x=\(box.x),y=\(box.y + top),s=\(box.width),v=\(rows),o=z,q=2"
            var payload: [UInt8] = []
            compressed.withUnsafeBytes { Base64.append($0, to: &payload) }
            command(&uploads, keys, payload: payload)
            top += rows
            if (compressed.count + 2) / 3 * 4 < 2048 { rows = rows * 3 / 2 + 1 }
        }
    }

    /// The smallest rectangle holding every pixel that differs; nil when none does.
    static func changed(_ before: [UInt8], _ now: [UInt8], width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard before.count == now.count else { return (0, 0, width, height) }
        var minX = width, minY = height, maxX = -1, maxY = -1
        before.withUnsafeBufferPointer { a in
            now.withUnsafeBufferPointer { b in
                for y in 0..<height {
                    let row = y * width * 3
                    var first = -1, last = -1
                    var x = 0
                    while x < width {
                        let i = row + x * 3
                        if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] {
                            if first < 0 { first = x }
                            last = x
                        }
                        x += 1
                    }
                    guard first >= 0 else { continue }
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// Sends pixels with `keys`: compressed, through a file when the terminal
    /// reads ours, else in base64 chunks of 4096 bytes.
    private mutating func send(_ keys: String, pixels: UnsafeRawBufferPointer) {
        let compressed = Deflate.zlib(pixels, level: 6)
        if options.kittyFiles, let file = KittyFile.write(compressed) {
            command(&uploads, keys + ",o=z,t=t", payload: Array(file.base64.utf8))
            return
        }
        var payload: [UInt8] = []
        compressed.withUnsafeBytes { Base64.append($0, to: &payload) }
        var offset = 0
        repeat {
            let end = min(offset + 4096, payload.count)
            let more = end < payload.count ? 1 : 0
            let chunkKeys = offset == 0 ? keys + ",o=z,m=\(more)" : "m=\(more)"
            command(&uploads, chunkKeys, payload: payload[offset..<end])
            offset = end
        } while offset < payload.count
    }

    /// Places image `id` at (`row`, `col`) over `span` cells: a placement at
    /// the cursor, or inside tmux a virtual one and the placeholder cells.
    private func place(_ id: UInt32, span: CellSpan?, row: Int, col: Int, into out: inout [UInt8]) {
        let size = span.map { ",c=\($0.columns),r=\($0.rows)" } ?? ""
        guard options.tmuxPlaceholders, let span else {
            out += Array("\u{1B}[\(row);\(col)H".utf8)
            command(&out, "a=p,i=\(id),p=1\(size),C=1,q=2")
            return
        }
        command(&out, "a=p,U=1,i=\(id),p=1\(size),q=2")
        KittyPlaceholders.cells(id: id, span: span, row: row, col: col, into: &out)
    }

    /// One graphics command, wrapped for tmux's passthrough inside tmux.
    private func command(_ out: inout [UInt8], _ keys: String, payload: some Collection<UInt8> = [UInt8]()) {
        var apc = Array("\u{1B}_G\(keys)".utf8)
        if !payload.isEmpty {
            apc.append(UInt8(ascii: ";"))
            apc += payload
        }
        apc += [0x1B, UInt8(ascii: "\\")]
        guard options.tmuxPlaceholders else {
            out += apc
            return
        }
        out += Array("\u{1B}Ptmux;".utf8)
        for byte in apc {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, UInt8(ascii: "\\")]
    }
}
