/// A still drawn slowly closer while it is shown (`gif-play --approach`):
/// the picture's form of the approach step exposure practice is built on.
///
/// Step `k` of ``steps`` shows the middle 1/z of the decoded picture, scaled
/// back to the same display area, z going smoothly from 1.0 to ``endZoom``
/// over ``displayMs``. Each step is a frame like a GIF's, so every renderer
/// (diffed cells, kitty frames, sixel) draws it, and a virtual clock replays
/// it exactly. A step is made from the one kept picture when the player's
/// look-ahead asks for it, never all at once.
public struct ApproachZoom: Sendable, Equatable {
    /// Frames from the first look to the closest (at least 10).
    public var steps: Int
    /// How close the last step is: 1.5 shows the middle two thirds.
    public var endZoom: Double
    /// The still's display time, spread over the steps, in ms.
    public var displayMs: Int

    /// The zoom of a still shown for `displayMs` (5 s: the player's time for a still).
    public init(steps: Int = 12, endZoom: Double = 1.5, displayMs: Int = 5000) {
        self.steps = max(2, steps)
        self.endZoom = max(1, endZoom)
        self.displayMs = max(self.steps, displayMs)
    }

    /// The zoom of step `step`: 1.0 at the first, ``endZoom`` at the last,
    /// eased (slow at both ends) so the picture glides rather than jumps.
    public func zoom(step: Int) -> Double {
        let t = Double(min(max(step, 0), steps - 1)) / Double(steps - 1)
        let eased = t * t * (3 - 2 * t)
        return 1 + (endZoom - 1) * eased
    }

    /// How long step `step` shows, in ms: whole ms that add up to ``displayMs``.
    public func delay(step: Int) -> Int {
        displayMs * (step + 1) / steps - displayMs * step / steps
    }

    /// The part of a `width` × `height` picture step `step` shows: its middle 1/z.
    public func crop(width: Int, height: Int, step: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let z = zoom(step: step)
        let w = Double(width) / z, h = Double(height) / z
        return ((Double(width) - w) / 2, (Double(height) - h) / 2, w, h)
    }

    /// Step `step` of an RGBA picture: its crop scaled (bilinear) to the same size.
    public func frame(_ rgba: [UInt8], width: Int, height: Int, step: Int) -> [UInt8] {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return rgba }
        let crop = crop(width: width, height: height, step: step)
        let scaleX = crop.width / Double(width), scaleY = crop.height / Double(height)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let sy = min(max(crop.y + (Double(y) + 0.5) * scaleY - 0.5, 0), Double(height - 1))
                    let y0 = Int(sy), y1 = min(y0 + 1, height - 1)
                    let fy = sy - Double(y0)
                    for x in 0..<width {
                        let sx = min(max(crop.x + (Double(x) + 0.5) * scaleX - 0.5, 0), Double(width - 1))
                        let x0 = Int(sx), x1 = min(x0 + 1, width - 1)
                        let fx = sx - Double(x0)
                        let a = (y0 * width + x0) * 4, b = (y0 * width + x1) * 4
                        let c = (y1 * width + x0) * 4, d = (y1 * width + x1) * 4
                        let at = (y * width + x) * 4
                        for channel in 0..<4 {
                            let top = Double(source[a + channel]) * (1 - fx) + Double(source[b + channel]) * fx
                            let bottom = Double(source[c + channel]) * (1 - fx) + Double(source[d + channel]) * fx
                            target[at + channel] = UInt8(min(255, max(0, (top * (1 - fy) + bottom * fy).rounded())))
                        }
                    }
                }
            }
        }
        return out
    }
}
