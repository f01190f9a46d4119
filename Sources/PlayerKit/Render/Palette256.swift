/// The xterm 256-colour palette: the 6×6×6 cube and the grey ramp.
public enum Palette256 {
    private static let levels = [0, 95, 135, 175, 215, 255]

    /// The nearest palette index (16–255) to a 0xRRGGBB colour.
    public static func index(rgb: Int) -> Int {
        let r = rgb >> 16 & 0xFF, g = rgb >> 8 & 0xFF, b = rgb & 0xFF
        let cr = cubeStep(r), cg = cubeStep(g), cb = cubeStep(b)
        let cube = 16 + 36 * cr + 6 * cg + cb
        let cubeDistance = square(levels[cr] - r) + square(levels[cg] - g) + square(levels[cb] - b)
        let average = (r + g + b) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + 10 * greyStep
        let greyDistance = square(grey - r) + square(grey - g) + square(grey - b)
        return greyDistance < cubeDistance ? 232 + greyStep : cube
    }

    /// The palette index (22–255) whose colour is exactly 0xRRGGBB in xterm's
    /// palette, if there is one. Entries 0–15 are left out, since themes
    /// change them, and so are 16–21 (black to pure blue), which base16 themes
    /// take for colours of their own.
    public static func exactIndex(rgb: Int) -> Int? {
        let r = rgb >> 16 & 0xFF, g = rgb >> 8 & 0xFF, b = rgb & 0xFF
        if let cr = level(r), let cg = level(g), let cb = level(b), cr + cg > 0 { return 16 + 36 * cr + 6 * cg + cb }
        if r == g && g == b && r >= 8 && r <= 238 && (r - 8) % 10 == 0 { return 232 + (r - 8) / 10 }
        return nil
    }

    private static func level(_ value: Int) -> Int? {
        switch value {
        case 0: 0
        case 95: 1
        case 135: 2
        case 175: 3
        case 215: 4
        case 255: 5
        default: nil
        }
    }

    private static func cubeStep(_ value: Int) -> Int {
        value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
    }

    private static func square(_ x: Int) -> Int { x * x }
}
