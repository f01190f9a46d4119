/// The logical screen images are composited on, with the disposal of the last
/// image still to do.
///
/// Disposal happens lazily, just before the next image is drawn, so a frame
/// shows its last image. Only the rectangle a "restore previous" image covers
/// is saved, not the whole canvas.
struct Canvas {
    /// The canvas size in pixels.
    let width: Int, height: Int
    /// RGBA, starting fully transparent.
    var pixels: [UInt8]

    /// A clipped rectangle on the canvas.
    struct Rect: Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
    }

    private var pendingDisposal: (method: Int, rect: Rect)?
    private var saved: (rect: Rect, pixels: [UInt8])?

    /// A transparent canvas; callers have checked the size against the limits.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The part of `entry`'s rectangle on the canvas, nil when none is.
    func clip(_ entry: ImageEntry) -> Rect? {
        let rect = Rect(x0: entry.left, y0: entry.top,
                        x1: min(entry.left + entry.width, width), y1: min(entry.top + entry.height, height))
        return rect.x0 < rect.x1 && rect.y0 < rect.y1 ? rect : nil
    }

    /// Disposes of the previous image, and saves what `entry` will cover when
    /// its own disposal is to restore it.
    mutating func begin(_ entry: ImageEntry) {
        if let (method, rect) = pendingDisposal {
            switch method {
            case 2: clear(rect)
            case 3, 4: restore()
            default: break
            }
            pendingDisposal = nil
        }
        saved = nil
        if Self.restoresPrevious(entry.disposal), let rect = clip(entry) {
            saved = (rect, copy(rect))
        }
    }

    /// Whether `entry` covers every pixel of the canvas, so that what it
    /// leaves does not depend on what was there: unless its disposal is to
    /// restore what was.
    func isCovered(by entry: ImageEntry) -> Bool {
        entry.left == 0 && entry.top == 0 && entry.width == width && entry.height >= height
            && !Self.restoresPrevious(entry.disposal)
    }

    /// Stands for `begin`, the drawing and `end` of an image that covers the
    /// canvas with opaque pixels (drawn later): the previous disposal and the
    /// saved rectangle no longer matter.
    mutating func cover(_ entry: ImageEntry) {
        saved = nil
        pendingDisposal = nil
        end(entry)
    }

    /// Records `entry`'s disposal, done before the next image.
    mutating func end(_ entry: ImageEntry) {
        if let rect = clip(entry) { pendingDisposal = (entry.disposal, rect) }
    }

    /// Disposal 3 restores the previous canvas; 4 is not in the spec, but
    /// some encoders write it for 3 and browsers read it so.
    static func restoresPrevious(_ disposal: Int) -> Bool { disposal == 3 || disposal == 4 }

    private mutating func clear(_ rect: Rect) {
        let rowBytes = (rect.x1 - rect.x0) * 4
        pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            for y in rect.y0..<rect.y1 {
                (base + (y * width + rect.x0) * 4).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
            }
        }
    }

    private func copy(_ rect: Rect) -> [UInt8] {
        let rowBytes = (rect.x1 - rect.x0) * 4
        var out = [UInt8](repeating: 0, count: rowBytes * (rect.y1 - rect.y0))
        out.withUnsafeMutableBytes { target in
            pixels.withUnsafeBytes { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                for y in rect.y0..<rect.y1 {
                    (to + (y - rect.y0) * rowBytes).copyMemory(from: from + (y * width + rect.x0) * 4, byteCount: rowBytes)
                }
            }
        }
        return out
    }

    private mutating func restore() {
        guard let (rect, saved) = saved else { return }
        let rowBytes = (rect.x1 - rect.x0) * 4
        let width = width
        pixels.withUnsafeMutableBytes { target in
            saved.withUnsafeBytes { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                for y in rect.y0..<rect.y1 {
                    (to + (y * width + rect.x0) * 4).copyMemory(from: from + (y - rect.y0) * rowBytes, byteCount: rowBytes)
                }
            }
        }
        self.saved = nil
    }
}
