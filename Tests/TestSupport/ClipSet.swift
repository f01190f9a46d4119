/// Photograph-like animated GIFs for measuring the perceptual hash
/// (`ClipHash`): scenes of a gradient lit by soft blobs, with film grain,
/// and shapes moving across; each scene as the same clip made again in
/// the ways a GIF site re-uploads one (``Copy``), and as different clips
/// that look alike (``Lookalike``: the same background and palette, other
/// motion or content).
///
/// Pure Swift and deterministic (a seeded generator, integer pixels), so
/// `bench/clip-hash` compiles it with the engine and prints the same
/// figures the tests assert.
public enum ClipSet {
    /// The clip's size before any copy resizes or crops it.
    public static let width = 160, height = 120
    /// The original's frames: 8, each shown 50 ms.
    public static let frames = 8, delayCentiseconds = 5

    /// A copy of a clip under another id.
    public enum Copy: String, CaseIterable, Sendable {
        /// The very same bytes.
        case identical
        /// Resized to 110 %.
        case larger
        /// Resized to 90 %.
        case smaller
        /// Another palette, ordered dithering.
        case requantized
        /// 2 px cut off every side.
        case cropped
        /// Half the frame rate: every other frame, each shown twice as long.
        case halfRate = "half-rate"
        /// The same frames, each shown 60 ms instead of 50.
        case slower
        /// Encoded as an optimizer writes it: after the first frame, only
        /// the rectangle that changed, unchanged pixels transparent.
        case optimized
        /// Re-quantized to 32 colors (cut from another sample), ordered dithering.
        case colors32 = "32-colors"
        /// Four more blank frames ahead of the clip (100 ms each): a longer blank opening.
        case blankOpening = "blank-opening"
    }

    /// A different clip made from a scene, looking much like it.
    public enum Lookalike: String, CaseIterable, Sendable {
        /// The same shapes moving the other way, from mirrored places (left for right).
        case mirrored
        /// Other shapes, elsewhere.
        case otherShapes = "other-shapes"
        /// The same shapes, starting a third of the picture away.
        case moved
    }

    /// A shape in a scene.
    public struct Shape: Sendable {
        public enum Kind: Sendable { case disc, box, spider }
        public var kind: Kind
        /// RGB.
        public var color: (Int, Int, Int)
        /// Its radius (half side), in thousandths of the picture's height: a
        /// GIF's subject, not a speck on a wall.
        public var size: Int
        /// Where it is at 0 ms, in thousandths of the picture.
        public var x: Int, y: Int
        /// How far it moves each second, in thousandths of the picture.
        public var dx: Int, dy: Int

        /// A shape.
        public init(kind: Kind, color: (Int, Int, Int), size: Int, x: Int, y: Int, dx: Int, dy: Int) {
            (self.kind, self.color, self.size, self.x, self.y, self.dx, self.dy) = (kind, color, size, x, y, dx, dy)
        }
    }

    /// A scene: a background and shapes.
    public struct Scene: Sendable {
        public var name: String
        public var seed: UInt64
        /// The gradient's two colors, RGB, and its direction (0–7, in eighths of a turn).
        public var from: (Int, Int, Int), to: (Int, Int, Int)
        public var direction = 1
        /// Soft light: (x, y, radius) in thousandths, and how much brighter.
        public var blobs: [(x: Int, y: Int, r: Int, lift: Int)]
        public var shapes: [Shape]
        /// Grain: ± this much on each channel, each pixel, each frame.
        public var grain = 10
        /// Fine moving detail: a texture of ± this much a pixel (ripples,
        /// leaves, rain), moving ``fineStep`` pixels across a frame; 0: none.
        public var fine = 0
        public var fineStep = 3
        /// Blank frames (a flat dark grey, with grain) the clip opens on, 100 ms each.
        public var blankFrames = 0
        /// The clip's size before any copy resizes or crops it.
        public var width = ClipSet.width, height = ClipSet.height
        /// A scene.
        public init(name: String, seed: UInt64, from: (Int, Int, Int), to: (Int, Int, Int), direction: Int = 1,
                    blobs: [(x: Int, y: Int, r: Int, lift: Int)], shapes: [Shape], grain: Int = 10) {
            (self.name, self.seed, self.from, self.to, self.direction) = (name, seed, from, to, direction)
            (self.blobs, self.shapes, self.grain) = (blobs, shapes, grain)
        }
    }

    /// `count` scenes, each unlike the others.
    public static func scenes(count: Int, seed: UInt64 = 22) -> [Scene] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let color = { (random.next(256), random.next(256), random.next(256)) }
            let (from, to) = (color(), color())
            // A shape stands out from the background (a picture is about its subject).
            let backdrop = (luma(from) + luma(to)) / 2
            let contrasting = { () -> (Int, Int, Int) in
                let c = color()
                guard abs(luma(c) - backdrop) < 80 else { return c }
                return backdrop > 128 ? (c.0 / 4, c.1 / 4, c.2 / 4) : (255 - (255 - c.0) / 4, 255 - (255 - c.1) / 4, 255 - (255 - c.2) / 4)
            }
            let kinds: [Shape.Kind] = [.disc, .box, .spider]
            let shapes = (0..<(2 + random.next(2))).map { _ in
                Shape(kind: kinds[random.next(3)], color: contrasting(), size: 140 + random.next(140),
                      // Off the middle: mirrored, a shape lands elsewhere.
                      x: random.next(2) == 0 ? 120 + random.next(230) : 650 + random.next(230), y: 150 + random.next(700),
                      dx: random.next(1200) - 600, dy: random.next(800) - 400)
            }
            let blobs = (0..<6).map { _ in (x: random.next(1000), y: random.next(1000), r: 150 + random.next(300), lift: random.next(121) - 60) }
            return Scene(name: "scene\(index)", seed: random.state, from: from, to: to, direction: random.next(8), blobs: blobs, shapes: shapes)
        }
    }

    /// `count` scenes with fine moving detail (a texture of ±40 a pixel
    /// moving 3 px a frame over the whole picture), each unlike the others.
    public static func fineScenes(count: Int, seed: UInt64 = 2807) -> [Scene] {
        scenes(count: count, seed: seed).enumerated().map { index, scene in
            var fine = scene
            fine.name = "fine\(index)"
            // Detail everywhere, light nowhere in particular: a near-flat
            // backdrop (the gradient a tenth as steep, the lights a third)
            // under a strong texture (water, leaves, a swarm).
            fine.to = (scene.from.0 + (scene.to.0 - scene.from.0) / 40, scene.from.1 + (scene.to.1 - scene.from.1) / 40,
                       scene.from.2 + (scene.to.2 - scene.from.2) / 40)
            fine.blobs = scene.blobs.map { ($0.x, $0.y, $0.r, $0.lift / 3) }
            fine.fine = 48
            fine.fineStep = 2 + index % 3
            // As large as a GIF site's own rendition: wider than the points sampled.
            (fine.width, fine.height) = (356, 200)
            return fine
        }
    }

    /// `count` scenes lit from one side: a steep gradient left to right
    /// (or right to left), no soft lights, a small subject. Their difference
    /// hashes are nearly all 1s (or 0s), whatever the subject: the pairs
    /// the difference hash alone takes for one clip.
    public static func sidelitScenes(count: Int, seed: UInt64 = 2817) -> [Scene] {
        var random = SplitMix64(seed: seed)
        let kinds: [Shape.Kind] = [.disc, .box, .spider]
        return (0..<count).map { index in
            let bright = (180 + random.next(76), 150 + random.next(106), 120 + random.next(136))
            let dark = (random.next(50), random.next(50), random.next(50))
            let shapes = (0..<(1 + random.next(2))).map { _ in
                let level = 60 + random.next(140)
                return Shape(kind: kinds[random.next(3)], color: (level, level * 3 / 4 + random.next(60), level / 2 + random.next(100)),
                             size: 60 + random.next(60), x: 150 + random.next(700), y: 200 + random.next(600),
                             dx: random.next(400) - 200, dy: random.next(300) - 150)
            }
            return Scene(name: "sidelit\(index)", seed: random.state, from: dark, to: bright, direction: random.next(2) * 4, blobs: [], shapes: shapes, grain: 6)
        }
    }

    /// `count` scenes whose clips open on 2 to 4 blank frames, each unlike the others.
    public static func blankScenes(count: Int, seed: UInt64 = 2827) -> [Scene] {
        scenes(count: count, seed: seed).enumerated().map { index, scene in
            var blank = scene
            blank.name = "blank\(index)"
            blank.blankFrames = 2 + index % 3
            return blank
        }
    }

    /// The measurement set: `count` scenes of each kind (photograph-like,
    /// fine moving detail, lit from one side, opening on blank frames).
    public static func measurementScenes(count: Int) -> [Scene] {
        scenes(count: count) + fineScenes(count: count) + sidelitScenes(count: count) + blankScenes(count: count)
    }

    /// Luma of RGB, 0–255.
    static func luma(_ c: (Int, Int, Int)) -> Int { (54 * c.0 + 183 * c.1 + 19 * c.2) >> 8 }

    /// The different clip `kind` made from `scene`: its background, grain and palette.
    public static func lookalike(_ kind: Lookalike, of scene: Scene) -> Scene {
        var other = scene
        other.name = scene.name + "-" + kind.rawValue
        other.seed = scene.seed &+ 1
        switch kind {
        case .mirrored:
            other.shapes = scene.shapes.map { shape in
                var mirrored = shape
                mirrored.x = 1000 - shape.x
                mirrored.dx = -shape.dx
                mirrored.dy = -shape.dy
                return mirrored
            }
        case .otherShapes:
            other.shapes = scene.shapes.enumerated().map { index, shape in
                var changed = shape
                changed.kind = [.box, .spider, .disc][(index + 1) % 3]
                changed.x = (shape.x + 500) % 1000
                changed.y = (shape.y + 350) % 1000
                changed.size = shape.size * 3 / 4
                return changed
            }
        case .moved:
            other.shapes = scene.shapes.map { shape in
                var moved = shape
                moved.x = (shape.x + 333) % 1000
                moved.y = (shape.y + 333) % 1000
                return moved
            }
        }
        return other
    }

    /// The original clip of `scene`, as a GIF.
    public static func original(_ scene: Scene) -> [UInt8] {
        Clip(scene).original()
    }

    /// `copy` of `scene`'s clip, as a GIF.
    public static func copy(_ copy: Copy, of scene: Scene) -> [UInt8] {
        Clip(scene).copy(copy)
    }

    /// A scene's frames drawn once, for its original and its copies.
    public struct Clip {
        let frames: [Picture]
        /// The original's size.
        let width: Int, height: Int
        /// The blank frames it opens on.
        let blank: [Picture]
        /// The original's palette: 252 colors cut from its frames (4 left for transparency).
        let palette: Palette

        /// The clip of `scene`.
        public init(_ scene: Scene) {
            frames = ClipSet.frames(scene)
            (width, height) = (scene.width, scene.height)
            blank = (0..<scene.blankFrames).map { ClipSet.blankFrame(scene, frame: $0, width: scene.width, height: scene.height) }
            palette = Palette(cutFrom: frames + blank, count: 252, every: 5, dither: 8)
        }

        /// The original, as a GIF: an adaptive palette, lightly dithered.
        public func original() -> [UInt8] {
            encode(frames, width: width, height: height, palette: palette, delay: delayCentiseconds)
        }

        /// Encodes `pictures` (and the blank opening, `blank` scaled by `transform`) shown `delay` cs each.
        func encode(_ pictures: [Picture], width w: Int, height h: Int, palette: Palette, delay: Int, optimized: Bool = false,
                    transform: (Picture) -> Picture = { $0 }, moreBlank: Int = 0) -> [UInt8] {
            let opening = (blank + (0..<moreBlank).map { _ in blank.first ?? ClipSet.blankFrame(nil, frame: 0, width: width, height: height) })
                .map(transform)
            return ClipSet.encode(pictures, width: w, height: h, palette: palette, delay: delay, optimized: optimized,
                                  opening: opening, openingDelay: 10)
        }

        /// A copy of it, as a GIF.
        public func copy(_ copy: Copy) -> [UInt8] {
            switch copy {
            case .identical:
                return original()
            case .larger, .smaller:
                let (w, h) = copy == .larger ? (width * 11 / 10, height * 11 / 10) : (width * 9 / 10, height * 9 / 10)
                return encode(frames.map { resize($0, fromWidth: width, fromHeight: height, toWidth: w, height: h) }, width: w, height: h, palette: palette, delay: delayCentiseconds,
                              transform: { resize($0, fromWidth: width, fromHeight: height, toWidth: w, height: h) })
            case .requantized:
                // Fewer colors, cut from another sample, mapped to the nearest without dithering.
                let other = Palette(cutFrom: frames, count: 160, every: 3, dither: 0)
                return encode(frames, width: width, height: height, palette: other, delay: delayCentiseconds)
            case .cropped:
                let cut = frames.map { crop($0, fromWidth: width, fromHeight: height, by: 2) }
                return encode(cut, width: width - 4, height: height - 4, palette: palette, delay: delayCentiseconds, transform: { crop($0, fromWidth: width, fromHeight: height, by: 2) })
            case .halfRate:
                let kept = frames.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                return encode(kept, width: width, height: height, palette: palette, delay: delayCentiseconds * 2)
            case .slower:
                return encode(frames, width: width, height: height, palette: palette, delay: delayCentiseconds + 1)
            case .optimized:
                return encode(frames, width: width, height: height, palette: palette, delay: delayCentiseconds, optimized: true)
            case .colors32:
                let few = Palette(cutFrom: frames, count: 32, every: 7, dither: 0)
                return encode(frames, width: width, height: height, palette: few, delay: delayCentiseconds)
            case .blankOpening:
                return encode(frames, width: width, height: height, palette: palette, delay: delayCentiseconds, moreBlank: 4)
            }
        }
    }

    // MARK: Drawing

    /// RGB bytes of one frame.
    typealias Picture = [UInt8]

    /// The scene's frames at the original's size and times.
    static func frames(_ scene: Scene) -> [Picture] {
        (0..<frames).map { render(scene, atMs: $0 * delayCentiseconds * 10, frame: $0) }
    }

    /// A blank frame of `scene`'s opening (of none: black): a flat dark grey, with grain.
    static func blankFrame(_ scene: Scene?, frame: Int, width: Int, height: Int) -> Picture {
        var grain = SplitMix64(seed: (scene?.seed ?? 0) &* 37 &+ UInt64(frame))
        let amount = scene?.grain ?? 0
        return (0..<(width * height * 3)).map { _ in UInt8(clamping: 24 + (amount > 0 ? grain.next(2 * amount + 1) - amount : 0)) }
    }

    static func render(_ scene: Scene, atMs time: Int, frame: Int) -> Picture {
        let (width, height) = (scene.width, scene.height)
        var pixels = Picture(repeating: 0, count: width * height * 3)
        var grain = SplitMix64(seed: scene.seed &* 31 &+ UInt64(frame))
        // The gradient runs across, down or corner to corner, either way.
        let along = [(1000, 0), (707, 707), (0, 1000), (-707, 707), (-1000, 0), (-707, -707), (0, -1000), (707, -707)][scene.direction]
        for y in 0..<height {
            for x in 0..<width {
                let u = x * 1000 / width, v = y * 1000 / height
                let t = ((u - 500) * along.0 + (v - 500) * along.1) / 1414 + 500
                var r = scene.from.0 + (scene.to.0 - scene.from.0) * t / 1000
                var g = scene.from.1 + (scene.to.1 - scene.from.1) * t / 1000
                var b = scene.from.2 + (scene.to.2 - scene.from.2) * t / 1000
                for blob in scene.blobs {
                    let d2 = (u - blob.x) * (u - blob.x) + (v - blob.y) * (v - blob.y)
                    let r2 = blob.r * blob.r
                    if d2 < r2 {
                        let lift = blob.lift * (r2 - d2) / r2
                        r += lift; g += lift; b += lift
                    }
                }
                for shape in scene.shapes where covers(shape, u: u, v: v, atMs: time, aspect: (width, height)) {
                    (r, g, b) = shape.color
                }
                var noise = scene.grain > 0 ? grain.next(2 * scene.grain + 1) - scene.grain : 0
                if scene.fine > 0 {
                    // A fixed texture, moved across: the same detail a few pixels on each frame.
                    var texture = SplitMix64(seed: scene.seed ^ UInt64(y * 4096 + (x + frame * scene.fineStep) % 4096))
                    noise += texture.next(2 * scene.fine + 1) - scene.fine
                }
                let at = (y * width + x) * 3
                pixels[at] = UInt8(clamping: r + noise)
                pixels[at + 1] = UInt8(clamping: g + noise)
                pixels[at + 2] = UInt8(clamping: b + noise)
            }
        }
        return pixels
    }

    /// Whether `shape` covers the point (`u`, `v`) (thousandths) at `time`.
    static func covers(_ shape: Shape, u: Int, v: Int, atMs time: Int, aspect: (Int, Int) = (ClipSet.width, ClipSet.height)) -> Bool {
        // Positions wrap around the picture, so a shape never leaves it.
        let cx = ((shape.x + shape.dx * time / 1000) % 1000 + 1000) % 1000
        let cy = ((shape.y + shape.dy * time / 1000) % 1000 + 1000) % 1000
        // Thousandths of the height across too: a disc is round on screen.
        let dx = (u - cx) * aspect.0 / aspect.1, dy = v - cy, r = shape.size
        switch shape.kind {
        case .disc:
            return dx * dx + dy * dy <= r * r
        case .box:
            return abs(dx) <= r && abs(dy) <= r * 2 / 3
        case .spider:
            // A body and eight legs: two crossed bars and two diagonals.
            let body = dx * dx + dy * dy <= r * r / 4
            let legs = abs(dx) <= r * 3 / 2 && (abs(dy) <= r / 12 || abs(abs(dx) - abs(dy)) <= r / 10)
            return body || legs
        }
    }

    static func resize(_ picture: Picture, fromWidth width: Int, fromHeight height: Int, toWidth w: Int, height h: Int) -> Picture {
        // Bilinear, in 1/256 steps: what an image editor's resize does, near enough.
        var out = Picture(repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let sy = max(0, (y * 2 + 1) * height * 128 / h - 128)
            let y0 = min(height - 1, sy >> 8), y1 = min(height - 1, y0 + 1), fy = sy & 255
            for x in 0..<w {
                let sx = max(0, (x * 2 + 1) * width * 128 / w - 128)
                let x0 = min(width - 1, sx >> 8), x1 = min(width - 1, x0 + 1), fx = sx & 255
                for c in 0..<3 {
                    let p = { (px: Int, py: Int) in Int(picture[(py * width + px) * 3 + c]) }
                    let top = p(x0, y0) * (256 - fx) + p(x1, y0) * fx
                    let bottom = p(x0, y1) * (256 - fx) + p(x1, y1) * fx
                    out[(y * w + x) * 3 + c] = UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16)
                }
            }
        }
        return out
    }

    static func crop(_ picture: Picture, fromWidth width: Int, fromHeight height: Int, by cut: Int) -> Picture {
        var out = Picture()
        out.reserveCapacity((width - 2 * cut) * (height - 2 * cut) * 3)
        for y in cut..<(height - cut) {
            out += picture[((y * width + cut) * 3)..<((y * width + width - cut) * 3)]
        }
        return out
    }

    // MARK: Encoding

    /// An adaptive palette (median cut, as GIF encoders make one) and how
    /// pixels are mapped to it.
    struct Palette {
        var colors: [[UInt8]]
        /// Ordered dithering: each channel moved by up to this much either way before mapping.
        var dither: Int
        /// The nearest color of each 5-bit-a-channel box, found once.
        private var nearest: [Int16]

        /// `count` colors cut from every `every`-th pixel of `frames`.
        init(cutFrom frames: [Picture], count: Int, every: Int, dither: Int) {
            var sample: [(Int, Int, Int)] = []
            for picture in frames {
                for at in stride(from: 0, to: picture.count / 3, by: every) {
                    sample.append((Int(picture[at * 3]), Int(picture[at * 3 + 1]), Int(picture[at * 3 + 2])))
                }
            }
            // Each box's widest channel and its spread, worked out once per
            // box (not again for every box at every split: that was most of
            // the suite's time).
            func spread(_ box: ArraySlice<(Int, Int, Int)>) -> (Int, Int) {
                var low = (Int.max, Int.max, Int.max), high = (Int.min, Int.min, Int.min)
                for (r, g, b) in box {
                    low = (min(low.0, r), min(low.1, g), min(low.2, b))
                    high = (max(high.0, r), max(high.1, g), max(high.2, b))
                }
                let channels = box.isEmpty ? [0, 0, 0] : [high.0 - low.0, high.1 - low.1, high.2 - low.2]
                let widest = channels.indices.max { channels[$0] < channels[$1] } ?? 0
                return (channels[widest], widest)
            }
            var boxes = [sample[...]]
            var spreads = [spread(boxes[0])]
            while boxes.count < count {
                // Split the box with the widest channel at its median.
                guard let index = spreads.indices.max(by: { spreads[$0].0 < spreads[$1].0 }), spreads[index].0 > 0 else { break }
                let channel = spreads[index].1
                let sorted = boxes[index].sorted { channel == 0 ? $0.0 < $1.0 : channel == 1 ? $0.1 < $1.1 : $0.2 < $1.2 }
                let half = sorted.count / 2
                boxes[index] = sorted[..<half]
                boxes.append(sorted[half...])
                spreads[index] = spread(boxes[index])
                spreads.append(spread(boxes[boxes.count - 1]))
            }
            colors = boxes.map { box in
                let n = max(1, box.count)
                return [UInt8(box.map(\.0).reduce(0, +) / n), UInt8(box.map(\.1).reduce(0, +) / n), UInt8(box.map(\.2).reduce(0, +) / n)]
            }
            self.dither = dither
            nearest = [Int16](repeating: -1, count: 32 * 32 * 32)
        }

        mutating func index(_ picture: Picture, _ pixel: Int, x: Int, y: Int) -> UInt8 {
            let bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
            let bias = (2 * bayer[(y % 4) * 4 + x % 4] + 1 - 16) * dither / 15
            let at = pixel * 3
            let (r, g, b) = (min(255, max(0, Int(picture[at]) + bias)), min(255, max(0, Int(picture[at + 1]) + bias)),
                             min(255, max(0, Int(picture[at + 2]) + bias)))
            let key = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3
            if nearest[key] < 0 {
                let (cr, cg, cb) = (r | 4, g | 4, b | 4)
                var best = 0, bestDistance = Int.max
                for (index, color) in colors.enumerated() {
                    let d = (Int(color[0]) - cr) * (Int(color[0]) - cr) + (Int(color[1]) - cg) * (Int(color[1]) - cg)
                        + (Int(color[2]) - cb) * (Int(color[2]) - cb)
                    if d < bestDistance { (best, bestDistance) = (index, d) }
                }
                nearest[key] = Int16(best)
            }
            return UInt8(nearest[key])
        }
    }

    static func encode(_ pictures: [Picture], width w: Int, height h: Int, palette given: Palette, delay: Int, optimized: Bool = false,
                       opening: [Picture] = [], openingDelay: Int = 10) -> [UInt8] {
        var palette = given
        var gif = GIFBuilder(width: w, height: h, colors: palette.colors)
        gif.loop(0)
        for picture in opening {
            var indices = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w { indices[y * w + x] = palette.index(picture, y * w + x, x: x, y: y) } }
            gif.control(delay: openingDelay, disposal: 1)
            gif.image(width: w, height: h, pixels: indices)
        }
        let transparent: UInt8 = 252
        var previous: [UInt8]?
        for picture in pictures {
            var indices = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h { for x in 0..<w { indices[y * w + x] = palette.index(picture, y * w + x, x: x, y: y) } }
            defer { previous = indices }
            guard optimized, let previous else {
                gif.control(delay: delay, disposal: 1)
                gif.image(width: w, height: h, pixels: indices)
                continue
            }
            // The rectangle of pixels that changed; unchanged ones inside it transparent.
            var (x0, y0, x1, y1) = (w, h, -1, -1)
            for y in 0..<h { for x in 0..<w where indices[y * w + x] != previous[y * w + x] {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            } }
            if x1 < 0 { (x0, y0, x1, y1) = (0, 0, 0, 0) }
            var part: [UInt8] = []
            for y in y0...y1 { for x in x0...x1 {
                part.append(indices[y * w + x] == previous[y * w + x] ? transparent : indices[y * w + x])
            } }
            gif.control(delay: delay, disposal: 1, transparent: Int(transparent))
            gif.image(left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, pixels: part)
        }
        gif.trailer()
        return gif.bytes
    }
}
