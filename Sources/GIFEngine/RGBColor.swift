/// An opaque color, for backgrounds.
public struct RGBColor: Sendable, Equatable, CustomStringConvertible {
    /// The red component.
    public var red: UInt8
    /// The green component.
    public var green: UInt8
    /// The blue component.
    public var blue: UInt8

    /// A color from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A color from `RRGGBB` or `#RRGGBB` hex digits; nil for anything else.
    public init?(hex text: String) {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.utf8.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        red = UInt8(value >> 16)
        green = UInt8((value >> 8) & 0xFF)
        blue = UInt8(value & 0xFF)
    }

    /// Black, the background when the terminal's is unknown.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// The color as `rrggbb`.
    public var description: String {
        let digits = Array("0123456789abcdef")
        return String([red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
