import ArgumentParser
import GIFEngine
import PlayerKit

/// `--renderer auto|truecolor|256|sixel|kitty|none`.
extension PlayerConfiguration.Renderer: ExpressibleByArgument {}

/// `--symbols half|quad|sextant|octant`.
extension Symbols: ExpressibleByArgument {}

/// `--on-release end|pause`.
extension PlayerConfiguration.OnRelease: ExpressibleByArgument {}

/// `--approach on|off|auto`.
extension ApproachMode: ExpressibleByArgument {}

/// `--hold mouse|keys|auto|always|script:FILE` (parsed by ``HoldSource/init(argument:)``).
extension HoldSource: ExpressibleByArgument {
    /// Listed when a value is not one of them.
    public static var allValueStrings: [String] { ["mouse", "keys", "auto", "always", "script:FILE"] }

    /// The default as shown in the help.
    public var defaultValueDescription: String { name }
}

/// `--ratings ask|off|script:FILE` (parsed by ``RatingSource/init(argument:)``).
extension RatingSource: ExpressibleByArgument {
    /// Listed when a value is not one of them.
    public static var allValueStrings: [String] { ["ask", "off", "script:FILE"] }

    /// The default as shown in the help.
    public var defaultValueDescription: String { name }
}

/// `gif-play frames --format pam|ppm|rgba`.
extension FrameFormat: ExpressibleByArgument {}
