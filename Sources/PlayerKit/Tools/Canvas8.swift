/// An indexed-colour canvas to draw the samples on.
struct Canvas8 {
    let width: Int, height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height)
    }

    mutating func set(_ x: Int, _ y: Int, _ color: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        pixels[y * width + x] = color
    }

    mutating func disc(_ cx: Int, _ cy: Int, _ radius: Int, color: UInt8) {
        guard radius > 0 else { return set(cx, cy, color) }
        for y in -radius...radius {
            for x in -radius...radius where x * x + y * y <= radius * radius { set(cx + x, cy + y, color) }
        }
    }

    mutating func line(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, color: UInt8) {
        var x = x0, y = y0
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        while true {
            set(x, y, color)
            if x == x1 && y == y1 { break }
            let twice = 2 * error
            if twice >= dy { error += dy; x += sx }
            if twice <= dx { error += dx; y += sy }
        }
    }
}
