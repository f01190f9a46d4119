import FoundationEssentials
import Glibc
import GIFEngine

/// The demo's sample GIFs, drawn by code and written with giflib, so the
/// offline demo needs no downloaded image: a spider dropping on its thread, a
/// spider crossing the screen, and a web being spun. A few seconds each.
public enum SampleGIFs {
    /// One sample: its name and how to draw frame `t` of `frames`.
    struct Sample: Sendable {
        let name: String
        let title: String
        let frames: Int
        let draw: @Sendable (inout Canvas8, Int, Int) -> Void
    }

    static let width = 160, height = 96
    static let palette: [(UInt8, UInt8, UInt8)] = [
        (226, 220, 204), (238, 238, 238), (96, 70, 52), (28, 20, 16), (210, 50, 40), (150, 150, 160),
        (46, 52, 64), (250, 210, 80), (90, 140, 90), (180, 130, 90), (120, 120, 130), (60, 90, 150),
    ]

    static let samples: [Sample] = [
        Sample(name: "spider-drop", title: "A spider drops on its thread", frames: 36, draw: drawDrop),
        Sample(name: "spider-walk", title: "A spider walks across", frames: 40, draw: drawWalk),
        Sample(name: "web", title: "A web being spun", frames: 32, draw: drawWeb),
    ]

    /// Writes the samples into `directory`; returns their paths and titles.
    public static func write(to directory: String) throws(GIFError) -> [(name: String, title: String, path: String)] {
        var written: [(String, String, String)] = []
        for sample in samples {
            let path = "\(directory)/\(sample.name).gif"
            let encoder = try GIFEncoder(path: path, width: width, height: height, palette: palette)
            for t in 0..<sample.frames {
                var canvas = Canvas8(width: width, height: height)
                sample.draw(&canvas, t, sample.frames)
                try encoder.add(pixels: canvas.pixels, delayCentiseconds: 8)
            }
            try encoder.close()
            chmod(path, 0o644)  // giflib creates files readable by the owner only
            written.append((sample.name, sample.title, path))
        }
        return written
    }

    // MARK: Drawings

    static func drawDrop(_ canvas: inout Canvas8, _ t: Int, _ frames: Int) {
        let phase = Double(t) / Double(frames)
        let y = 10 + Int(50 * (1 - cos(phase * 2 * .pi)) / 2)
        canvas.line(80, 0, 80, y - 6, color: 10)
        spider(&canvas, x: 80, y: y, t: t, facing: 0, size: 1.4)
    }

    static func drawWalk(_ canvas: inout Canvas8, _ t: Int, _ frames: Int) {
        for x in stride(from: 0, to: width, by: 1) { canvas.set(x, 80, 2); canvas.set(x, 81, 2) }
        let x = -20 + (width + 40) * t / frames
        spider(&canvas, x: x, y: 64, t: t, facing: 1, size: 1.3)
    }

    static func drawWeb(_ canvas: inout Canvas8, _ t: Int, _ frames: Int) {
        let cx = 80, cy = 48
        let spokes = 12
        let grown = min(1, Double(t) / Double(frames / 3))
        for spoke in 0..<spokes {
            let angle = Double(spoke) * 2 * .pi / Double(spokes)
            canvas.line(cx, cy, cx + Int(cos(angle) * 70 * grown), cy + Int(sin(angle) * 44 * grown), color: 5)
        }
        let turns = max(0, t - frames / 3)
        var previous: (Int, Int)?
        for step in 0..<(turns * 12) {
            let angle = Double(step) * 2 * .pi / Double(spokes)
            let radius = 6 + Double(step) * 0.45
            let point = (cx + Int(cos(angle) * radius * 1.5), cy + Int(sin(angle) * radius))
            if let previous { canvas.line(previous.0, previous.1, point.0, point.1, color: 10) }
            previous = point
        }
        if let previous { spider(&canvas, x: previous.0, y: previous.1, t: t, facing: 0, size: 0.6) }
    }

    /// A round body, a head, and eight legs that move with `t`.
    static func spider(_ canvas: inout Canvas8, x: Int, y: Int, t: Int, facing: Int, size: Double = 1) {
        let body = Int(9 * size), head = Int(5 * size)
        for side in [-1, 1] {
            for leg in 0..<4 {
                let wiggle = (t + leg * 2) % 4 < 2 ? 2 : -2
                let baseY = y - Int(4 * size) + leg * Int(3 * size)
                let kneeX = x + side * Int(Double(12 + leg) * size)
                let kneeY = baseY - Int(8 * size) + wiggle
                let footX = x + side * Int(Double(20 + leg * 2) * size)
                let footY = baseY + Int(6 * size) - wiggle
                canvas.line(x, baseY, kneeX, kneeY, color: 3)
                canvas.line(kneeX, kneeY, footX, footY, color: 3)
            }
        }
        canvas.disc(x, y, body, color: 3)
        canvas.disc(x + facing * body, y - (facing == 0 ? body : 0) + (facing == 0 ? body * 2 - 2 : 0), head, color: 2)
        canvas.set(x - 2 + facing * body, y + (facing == 0 ? body + 2 : -1), 4)
        canvas.set(x + 2 + facing * body, y + (facing == 0 ? body + 2 : -1), 4)
        canvas.disc(x - Int(3 * size), y - Int(3 * size), max(1, Int(2 * size)), color: 9)
    }
}
