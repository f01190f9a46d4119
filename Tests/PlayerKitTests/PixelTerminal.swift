import CZlib
import FoundationEssentials
import Glibc
@testable import PlayerKit

/// What a pixel terminal would make of a renderer's bytes, for the tests: the
/// kitty graphics commands (images, frames, placements, frame switches) and
/// sixel images decoded onto a canvas.
struct KittyModel {
    struct Image {
        var width = 0, height = 0
        /// RGBA of each frame, frame 1 first.
        var frames: [[UInt8]] = []
        var current = 1
    }

    var images: [UInt32: Image] = [:]
    var placed: [UInt32: String] = [:]
    /// Each command's keys, in order, and its payload's size in base64.
    var commands: [(keys: [String: String], payload: Int)] = []
    /// A chunked transmission under way: its first command's keys and the payload so far.
    private var chunked: (keys: [String: String], payload: String)?

    /// Applies every graphics command in `bytes` (unwrapping tmux passthrough).
    mutating func apply(_ bytes: [UInt8]) throws {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.contains("\u{1B}Ptmux;") {
            text = text.replacingOccurrences(of: "\u{1B}Ptmux;", with: "").replacingOccurrences(of: "\u{1B}\u{1B}", with: "\u{1B}")
        }
        // A whole-screen clear between commands does what kitty's does: the
        // placements on screen go, and every image left without one is freed.
        let cleared = text.components(separatedBy: "\u{1B}[2J")
        for (index, segment) in cleared.enumerated() {
            if index > 0 {
                placed = placed.filter { virtual.contains($0.key) }
                images = images.filter { placed[$0.key] != nil }
            }
            try applyCommands(segment)
        }
    }

    /// Virtual placements (`U=1`, tmux's placeholders), which a clear keeps.
    var virtual: Set<UInt32> = []

    private mutating func applyCommands(_ text: String) throws {
        for part in text.components(separatedBy: "\u{1B}_G").dropFirst() {
            guard let end = part.range(of: "\u{1B}\\") else { continue }
            let body = String(part[..<end.lowerBound])
            let split = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            var keys: [String: String] = [:]
            for pair in split[0].split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                keys[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
            }
            let payload = split.count > 1 ? String(split[1]) : ""
            commands.append((keys, payload.count))
            if var open = chunked {
                guard keys.keys.sorted() == ["m"] else { throw Failure("a command inside a chunked transmission") }
                open.payload += payload
                chunked = keys["m"] == "1" ? open : nil
                if keys["m"] != "1" { try run(open.keys, payload: open.payload) }
            } else if keys["m"] == "1" {
                chunked = (keys, payload)
            } else {
                try run(keys, payload: payload)
            }
        }
    }

    private mutating func run(_ keys: [String: String], payload: String) throws {
        let id = UInt32(keys["i"] ?? "0") ?? 0
        switch keys["a"] {
        case "t":
            let rgb = try Self.pixels(payload, keys: keys)
            let width = Int(keys["s"]!)!, height = Int(keys["v"]!)!
            var rgba = [UInt8](repeating: 255, count: width * height * 4)
            for pixel in 0..<(width * height) { for c in 0..<3 { rgba[pixel * 4 + c] = rgb[pixel * 3 + c] } }
            images[id] = Image(width: width, height: height, frames: [rgba])
        case "f":
            guard var image = images[id] else { throw Failure("a=f for a missing image \(id)") }
            let data = try Self.pixels(payload, keys: keys)
            var canvas: [UInt8]
            let edit = keys["r"].flatMap { Int($0) }
            if let edit { canvas = image.frames[edit - 1] } else {
                canvas = keys["c"].flatMap { Int($0) }.map { image.frames[$0 - 1] } ?? [UInt8](repeating: 0, count: image.width * image.height * 4)
            }
            let x = Int(keys["x"] ?? "0")!, y = Int(keys["y"] ?? "0")!, w = Int(keys["s"]!)!, h = Int(keys["v"]!)!
            for row in 0..<h {
                for col in 0..<w {
                    let from = (row * w + col) * 4, to = ((y + row) * image.width + x + col) * 4
                    guard data[from + 3] == 255 else { continue }
                    for c in 0..<4 { canvas[to + c] = data[from + c] }
                }
            }
            if let edit { image.frames[edit - 1] = canvas } else { image.frames.append(canvas) }
            images[id] = image
        case "a":
            if let frame = keys["c"].flatMap({ Int($0) }) { images[id]?.current = frame }
        case "p":
            guard images[id] != nil else { throw Failure("a=p for a missing image \(id)") }
            placed[id] = "c=\(keys["c"] ?? ""),r=\(keys["r"] ?? "")"
            if keys["U"] == "1" { virtual.insert(id) }
        case "d":
            placed[id] = nil
            // As kitty does: freeing one image frees every image without a placement.
            if keys["d"] == "I" { images = images.filter { placed[$0.key] != nil } }
        default: break
        }
    }

    /// The RGB or RGBA bytes of a payload: base64, then zlib when `o=z`.
    static func pixels(_ payload: String, keys: [String: String]) throws -> [UInt8] {
        guard let data = Data(base64Encoded: payload) else { throw Failure("payload is not base64") }
        let bytes = [UInt8](data)
        guard keys["o"] == "z" else { return bytes }
        return try inflate(bytes)
    }

    /// zlib's uncompress, for a stream known to be small.
    static func inflate(_ bytes: [UInt8]) throws -> [UInt8] {
        var size = uLong(64 << 20)
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { uncompress($0.baseAddress, &size, bytes, uLong(bytes.count)) }
        guard status == Z_OK else { throw Failure("not a zlib stream (\(status))") }
        return Array(out[..<Int(size)])
    }

    /// The RGB of the frame image `id` shows now.
    func shown(_ id: UInt32) -> [UInt8]? {
        guard let image = images[id] else { return nil }
        let rgba = image.frames[image.current - 1]
        var rgb: [UInt8] = []
        for pixel in 0..<(image.width * image.height) { rgb += rgba[(pixel * 4)..<(pixel * 4 + 3)] }
        return rgb
    }
}

/// A sixel canvas: each image drawn where the cursor was put, pixels not
/// drawn left as they were (background select 1).
struct SixelCanvas {
    let width: Int, height: Int, cellHeight: Int
    var rgb: [UInt8]
    /// Colours each image defined.
    var colorsDefined: [Int] = []

    init(width: Int, height: Int, cellHeight: Int) {
        self.width = width
        self.height = height
        self.cellHeight = cellHeight
        rgb = [UInt8](repeating: 0, count: width * height * 3)
    }

    /// Draws every sixel image in `bytes`; the picture's top-left cell is (`row`, `col`).
    mutating func apply(_ bytes: [UInt8], row: Int, col: Int) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        var cursorRow = row
        var index = text.startIndex
        while let esc = text[index...].firstIndex(of: "\u{1B}") {
            let rest = text[text.index(after: esc)...]
            if rest.hasPrefix("["), let h = rest.firstIndex(of: "H") {
                let numbers = rest[rest.index(after: rest.startIndex)..<h].split(separator: ";").compactMap { Int($0) }
                if numbers.count == 2 { cursorRow = numbers[0] }
                index = text.index(after: h)
            } else if rest.hasPrefix("P"), let q = rest.firstIndex(of: "q"), let end = rest.range(of: "\u{1B}\\") {
                try draw(String(rest[rest.index(after: q)..<end.lowerBound]), top: (cursorRow - row) * cellHeight)
                index = end.upperBound
            } else {
                index = text.index(after: esc)
            }
        }
    }

    private mutating func draw(_ body: String, top: Int) throws {
        var palette: [Int: (Int, Int, Int)] = [:]
        var color = 0, x = 0, band = 0
        var chars = Array(body.utf8)[...]
        func number() -> Int {
            var value = 0
            while let c = chars.first, c >= 48 && c <= 57 { value = value * 10 + Int(c - 48); chars = chars.dropFirst() }
            return value
        }
        var defined = 0
        while let c = chars.first {
            chars = chars.dropFirst()
            switch c {
            case UInt8(ascii: "\""):
                _ = number(); chars = chars.dropFirst(); _ = number(); chars = chars.dropFirst(); _ = number(); chars = chars.dropFirst(); _ = number()
            case UInt8(ascii: "#"):
                color = number()
                if chars.first == UInt8(ascii: ";") {
                    chars = chars.dropFirst(); _ = number(); chars = chars.dropFirst()
                    let r = number(); chars = chars.dropFirst()
                    let g = number(); chars = chars.dropFirst()
                    let b = number()
                    palette[color] = (r * 255 / 100, g * 255 / 100, b * 255 / 100)
                    defined += 1
                }
            case UInt8(ascii: "$"): x = 0
            case UInt8(ascii: "-"): x = 0; band += 1
            case UInt8(ascii: "!"):
                let count = number()
                guard let sixel = chars.first else { break }
                chars = chars.dropFirst()
                for _ in 0..<count { try put(sixel, x: x, band: band, top: top, palette[color]); x += 1 }
            case 63...126:
                try put(c, x: x, band: band, top: top, palette[color]); x += 1
            default: break
            }
        }
        colorsDefined.append(defined)
    }

    private mutating func put(_ sixel: UInt8, x: Int, band: Int, top: Int, _ color: (Int, Int, Int)?) throws {
        let bits = sixel - 63
        guard bits != 0 else { return }
        guard let color else { throw Failure("a sixel in a colour never defined") }
        for bit in 0..<6 where bits & (1 << bit) != 0 {
            let y = top + band * 6 + bit
            guard x < width, y < height else { throw Failure("a sixel outside the picture at \(x),\(y)") }
            let at = (y * width + x) * 3
            rgb[at] = UInt8(color.0)
            rgb[at + 1] = UInt8(color.1)
            rgb[at + 2] = UInt8(color.2)
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// PSNR of `a` against `b` (same size), in dB; infinity when equal.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    var sum = 0.0
    for i in 0..<min(a.count, b.count) {
        let d = Double(a[i]) - Double(b[i])
        sum += d * d
    }
    let mse = sum / Double(max(1, a.count))
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}
